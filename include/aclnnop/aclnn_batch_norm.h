/* pacl: output = (input - mean) / sqrt(var + eps) * weight + bias per channel; training: batch statistics (saveMean, saveInvstd = the batch variance, as CANN's A2/A3) and running-stat update; else running statistics. */
#ifndef OP_API_INC_BATCH_NORM_H_
#define OP_API_INC_BATCH_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                     const aclTensor* bias, aclTensor* runningMean,
                                                     aclTensor* runningVar, bool training, double momentum, double eps,
                                                     aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
