/* pacl: x[i] = 0 for each tensor of the list. */
#ifndef OP_API_INC_FOREACH_ZERO_INPLACE_H_
#define OP_API_INC_FOREACH_ZERO_INPLACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachZeroInplaceGetWorkspaceSize(const aclTensorList* x, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachZeroInplace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
