/* pacl: out = x is inf or -inf (bool). */
#ifndef OP_API_INC_IS_INF_H_
#define OP_API_INC_IS_INF_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsInfGetWorkspaceSize(const aclTensor* x, const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsInf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
