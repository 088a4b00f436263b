/* pacl: out[i] = x1[i] + scalar * x2[i] * x3[i]; scalar is a one-element tensor. */
#ifndef OP_API_INC_FOREACH_ADDCMUL_SCALAR_H_
#define OP_API_INC_FOREACH_ADDCMUL_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachAddcmulScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                const aclTensorList* x3, const aclTensor* scalar,
                                                                const aclTensorList* out, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachAddcmulScalar(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
