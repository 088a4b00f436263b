/* pacl: x[i] = acos(x[i]) for each tensor of the list, in place. */
#ifndef OP_API_INC_FOREACH_A_COS_INPLACE_H_
#define OP_API_INC_FOREACH_A_COS_INPLACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachACosInplaceGetWorkspaceSize(const aclTensorList* x, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachACosInplace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
