/* pacl: selfRef[i] = mask[i] ? value : selfRef[i], mask (bool) broadcast to selfRef, value a 0-d tensor. */
#ifndef OP_API_INC_MASKEF_FILL_TENSOR_H_
#define OP_API_INC_MASKEF_FILL_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                                   const aclTensor* value, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
