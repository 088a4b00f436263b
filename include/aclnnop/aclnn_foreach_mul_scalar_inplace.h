/* pacl: x[i] *= scalar; scalar is a one-element tensor read when the op runs. */
#ifndef OP_API_INC_FOREACH_MUL_SCALAR_INPLACE_H_
#define OP_API_INC_FOREACH_MUL_SCALAR_INPLACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachMulScalarInplaceGetWorkspaceSize(const aclTensorList* x, const aclTensor* scalar,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachMulScalarInplace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
