/* pacl: x1[i] -= alpha * x2[i]; alpha is a one-element tensor read when the op runs. */
#ifndef OP_API_INC_FOREACH_SUB_LIST_INPLACE_H_
#define OP_API_INC_FOREACH_SUB_LIST_INPLACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachSubListInplaceGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                 const aclTensor* alpha, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachSubListInplace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
