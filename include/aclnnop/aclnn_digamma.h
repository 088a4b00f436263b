/* pacl: out = digamma(self) = d/dx log Gamma(self). */
#ifndef OP_API_INC_LEVEL2_ACLNN_DIGAMMA_H_
#define OP_API_INC_LEVEL2_ACLNN_DIGAMMA_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDigammaGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDigamma(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
