/* pacl: out[i] = x[i] - scalars[i]. */
#ifndef OP_API_INC_FOREACH_SUB_SCALAR_LIST_H_
#define OP_API_INC_FOREACH_SUB_SCALAR_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachSubScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                                                const aclTensorList* out, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachSubScalarList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
