/* pacl: out[i] = maximum(x1[i], x2[i]) (NaN propagates). */
#ifndef OP_API_INC_FOREACH_MAXIMUM_LIST_H_
#define OP_API_INC_FOREACH_MAXIMUM_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachMaximumListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                              const aclTensorList* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachMaximumList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
