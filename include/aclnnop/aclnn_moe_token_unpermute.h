/* pacl: MoE token unpermute: gathers permuted rows back per token, weighted by probs, summed over topK. */
#ifndef OP_API_INC_MOE_TOKEN_UNPERMUTE_H_
#define OP_API_INC_MOE_TOKEN_UNPERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenUnpermuteGetWorkspaceSize(const aclTensor* permutedTokens,
                                                             const aclTensor* sortedIndices,
                                                             const aclTensor* probsOptional, bool paddedMode,
                                                             const aclIntArray* restoreShapeOptional, aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenUnpermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
