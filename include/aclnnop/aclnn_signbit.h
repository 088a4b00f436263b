/* pacl: out = the sign bit of self is set (true for -0.0). */
#ifndef OP_API_INC_LEVEL2_ACLNN_SIGN_BIT_H_
#define OP_API_INC_LEVEL2_ACLNN_SIGN_BIT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSignbitGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSignbit(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
