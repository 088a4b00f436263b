/* pacl: out = sum_i self[i] * tensor[i] (1-D inputs, 0-d out, one dtype). */
#ifndef OP_API_INC_LEVEL2_ACLNN_DOT_H_
#define OP_API_INC_LEVEL2_ACLNN_DOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
