/* pacl: x1[i] *= x2[i]. */
#ifndef OP_API_INC_FOREACH_MUL_LIST_INPLACE_H_
#define OP_API_INC_FOREACH_MUL_LIST_INPLACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachMulListInplaceGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachMulListInplace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
