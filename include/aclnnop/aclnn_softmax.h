/* pacl: out = exp(self - max) / sum(exp(self - max)) along dim. */
#ifndef OP_API_OP_API_INC_LEVEL2_OP_ACLNN_SOFTMAX_H_
#define OP_API_OP_API_INC_LEVEL2_OP_ACLNN_SOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
