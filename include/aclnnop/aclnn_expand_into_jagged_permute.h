/* pacl: outputPermuteOut[outputOffset[i] + j] = inputOffset[permute[i]] + j for j < outputOffset[i+1] - outputOffset[i]. */
#ifndef OP_API_INC_EXPAND_INTO_JAGGED_PERMUTE_H_
#define OP_API_INC_EXPAND_INTO_JAGGED_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExpandIntoJaggedPermuteGetWorkspaceSize(const aclTensor* permute,
                                                                   const aclTensor* inputOffset,
                                                                   const aclTensor* outputOffset, int64_t outputSize,
                                                                   const aclTensor* outputPermuteOut,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExpandIntoJaggedPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
