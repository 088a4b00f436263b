/* pacl: flatten(selfRef)[index[i]] = source[i] (accumulate: +=); negative indices count from the end (torch.Tensor.put_). */
#ifndef OP_API_INC_PUT_H_
#define OP_API_INC_PUT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplacePutGetWorkspaceSize(aclTensor* selfRef, const aclTensor* index,
                                                      const aclTensor* source, bool accumulate,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplacePut(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
