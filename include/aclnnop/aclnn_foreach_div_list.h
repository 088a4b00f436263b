/* pacl: out[i] = x1[i] / x2[i]. */
#ifndef OP_API_INC_FOREACH_DIV_LIST_H_
#define OP_API_INC_FOREACH_DIV_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachDivListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                          aclTensorList* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachDivList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
