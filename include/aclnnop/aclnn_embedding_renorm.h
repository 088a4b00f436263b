/* pacl: rows of selfRef named by indices rescaled to normType-norm maxNorm when their norm exceeds it. */
#ifndef OP_API_INC_EMBEDDING_RENORM_H_
#define OP_API_INC_EMBEDDING_RENORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingRenormGetWorkspaceSize(aclTensor* selfRef, const aclTensor* indices, double maxNorm,
                                                           double normType, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnEmbeddingRenorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
