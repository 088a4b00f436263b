/* pacl: gradients of BatchNorm (gradInput, gradWeight, gradBias by outputMask). */
#ifndef OP_API_INC_BATCH_NORM_BACKWARD_H_
#define OP_API_INC_BATCH_NORM_BACKWARD_H_

#ifdef __cplusplus
#include <array>  /* as CANN's header: programs rely on it */
#endif
#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                             const aclTensor* weight, const aclTensor* runningMean,
                                                             const aclTensor* runningVar, const aclTensor* saveMean,
                                                             const aclTensor* saveInvstd, bool training, double eps,
                                                             const aclBoolArray* outputMask, aclTensor* gradInput,
                                                             aclTensor* gradWeight, aclTensor* gradBias,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
