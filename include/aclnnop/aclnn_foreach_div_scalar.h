/* pacl: out[i] = x[i] / scalar; scalar is a one-element tensor read when the op runs. */
#ifndef OP_API_INC_FOREACH_DIV_SCALAR_H_
#define OP_API_INC_FOREACH_DIV_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachDivScalarGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                            aclTensorList* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachDivScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
