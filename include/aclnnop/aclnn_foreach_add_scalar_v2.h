/* pacl: out[i] = x[i] + scalar (an aclScalar). */
#ifndef OP_API_INC_FOREACH_ADD_SCALAR_V2_H_
#define OP_API_INC_FOREACH_ADD_SCALAR_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachAddScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                              aclTensorList* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachAddScalarV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
