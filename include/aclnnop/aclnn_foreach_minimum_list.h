/* pacl: out[i] = minimum(x1[i], x2[i]) (NaN propagates). */
#ifndef OP_API_INC_FOREACH_MINIMUM_LIST_H_
#define OP_API_INC_FOREACH_MINIMUM_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachMinimumListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                              const aclTensorList* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachMinimumList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
