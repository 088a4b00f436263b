/* pacl: backward of RepeatInterleaveWithDim: out = yGrad with each run of repeats[i] entries along axis summed. */
#ifndef OP_API_INC_REPEAT_INTERLEAVE_GRAD_H_
#define OP_API_INC_REPEAT_INTERLEAVE_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRepeatInterleaveGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* repeats,
                                                                int64_t axis, const aclTensor* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRepeatInterleaveGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
