/* pacl: out[i] = x[i] rounded by roundMode: 1 rint, 2 floor, 3 ceil, 4 round, 5 trunc, 6 odd, 7 frac. */
#ifndef OP_API_INC_FOREACH_ROUND_OFF_NUMBER_V2_H_
#define OP_API_INC_FOREACH_ROUND_OFF_NUMBER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachRoundOffNumberV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* roundMode,
                                                                   aclTensorList* out, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachRoundOffNumberV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
