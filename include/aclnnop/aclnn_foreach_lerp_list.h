/* pacl: out[i] = x1[i] + weight[i] * (x2[i] - x1[i]), weight a tensor list. */
#ifndef OP_API_INC_FOREACH_LERP_LIST_H_
#define OP_API_INC_FOREACH_LERP_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachLerpListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                           const aclTensorList* weight, aclTensorList* out,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachLerpList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
