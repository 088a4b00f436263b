/* pacl: MoE token permute: tokens expanded by their topK expert indices and sorted (stably) by expert. */
#ifndef OP_API_INC_MOE_TOKEN_PERMUTE_H_
#define OP_API_INC_MOE_TOKEN_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeTokenPermuteGetWorkspaceSize(const aclTensor* tokens, const aclTensor* indices,
                                                           int64_t numOutTokens, bool paddedMode,
                                                           const aclTensor* permuteTokensOut,
                                                           const aclTensor* sortedIndicesOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeTokenPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
