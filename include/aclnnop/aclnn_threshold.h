/* pacl: out = self > threshold ? self : value (threshold and value in self's dtype). */
#ifndef OP_API_INC_THRESHOLD_H_
#define OP_API_INC_THRESHOLD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold,
        const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnThreshold(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
        aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
        const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceThreshold(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
