/* pacl: out[i] = x1[i] + scalars[i] * x2[i] * x3[i]; scalars is a tensor of one value per list element. */
#ifndef OP_API_INC_FOREACH_ADDCMUL_SCALAR_LIST_H_
#define OP_API_INC_FOREACH_ADDCMUL_SCALAR_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachAddcmulScalarListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                    const aclTensorList* x3, const aclTensor* scalars,
                                                                    const aclTensorList* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachAddcmulScalarList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
