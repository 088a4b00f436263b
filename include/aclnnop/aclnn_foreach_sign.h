/* pacl: out[i] = sign(x[i]) (-1, 0 or 1; sign(NaN) = 0). */
#ifndef OP_API_INC_FOREACH_SIGN_H_
#define OP_API_INC_FOREACH_SIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachSignGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachSign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
