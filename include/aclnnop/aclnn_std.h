/* pacl: out = standard deviation of self over dim: sqrt(sum((x - mean)^2) / max(0, N - correction)). */
#ifndef OP_API_INC_STD_H_
#define OP_API_INC_STD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, const int64_t correction, bool keepdim, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnStd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
