/* pacl: out = log|Gamma(self)|. */
#ifndef OP_API_INC_LEVEL2_ACLNN_LGAMMA_H_
#define OP_API_INC_LEVEL2_ACLNN_LGAMMA_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLgammaGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLgamma(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
