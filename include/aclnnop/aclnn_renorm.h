/* pacl: each slice of self along dim scaled to p-norm maxNorm when its norm exceeds it (maxNorm / (norm + 1e-7)). */
#ifndef OP_API_INC_RENORM_H_
#define OP_API_INC_RENORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRenormGetWorkspaceSize(const aclTensor* self, const aclScalar* p, int64_t dim,
                                                  const aclScalar* maxNorm, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnRenorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceRenormGetWorkspaceSize(aclTensor* selfRef, const aclScalar* p, int64_t dim,
                                                         const aclScalar* maxNorm, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnInplaceRenorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
