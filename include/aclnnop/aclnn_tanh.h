/* pacl: out = tanh(self); integer and bool inputs compute in float32. */
#ifndef OP_API_INC_TANH_H_
#define OP_API_INC_TANH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTanh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
        const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceTanhGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceTanh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
        const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
