/* pacl: out[i] = cosh(x[i]) for each tensor of the list. */
#ifndef OP_API_INC_FOREACH_COSH_H_
#define OP_API_INC_FOREACH_COSH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachCoshGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachCosh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
