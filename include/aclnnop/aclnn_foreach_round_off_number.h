/* pacl: out[i] = x[i] rounded by roundMode (int8 tensor): 1 rint, 2 floor, 3 ceil, 4 round, 5 trunc, 6 odd, 7 frac. */
#ifndef OP_API_INC_FOREACH_ROUND_OFF_NUMBER_H_
#define OP_API_INC_FOREACH_ROUND_OFF_NUMBER_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachRoundOffNumberGetWorkspaceSize(const aclTensorList* x, const aclTensor* roundMode,
                                                                 const aclTensorList* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachRoundOffNumber(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
