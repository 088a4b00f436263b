/* pacl: out[i] = x[i], converted float32 <-> float16/bfloat16 where the dtypes differ. */
#ifndef OP_API_INC_FOREACH_COPY_H_
#define OP_API_INC_FOREACH_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachCopyGetWorkspaceSize(const aclTensorList* x, aclTensorList* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
