/* pacl: out = tensors[0] + tensors[1] + ... (same shapes and dtypes). */
#ifndef OP_API_INC_LEVEL2_ACLNN_ADDN_H_
#define OP_API_INC_LEVEL2_ACLNN_ADDN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddNGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddN(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
