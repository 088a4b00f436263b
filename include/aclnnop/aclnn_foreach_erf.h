/* pacl: out[i] = erf(x[i]) for each tensor of the list. */
#ifndef OP_API_INC_FOREACH_ERF_H_
#define OP_API_INC_FOREACH_ERF_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachErfGetWorkspaceSize(const aclTensorList* x, const aclTensorList* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachErf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
