/* pacl: out[n, c, 1, ...] = mean of self[n, c, ...] over the spatial dims. */
#ifndef OP_API_INC_GLOBAL_AVERAGE_POOL_H_
#define OP_API_INC_GLOBAL_AVERAGE_POOL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGlobalAveragePoolGetWorkspaceSize(const aclTensor* self, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGlobalAveragePool(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
