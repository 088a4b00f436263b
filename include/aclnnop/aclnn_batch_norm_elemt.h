/* pacl: output = (input - mean) * invstd * weight + bias per channel. */
#ifndef OP_API_INC_BATCH_NORM_ELEMT_H_
#define OP_API_INC_BATCH_NORM_ELEMT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormElemtGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                          const aclTensor* bias, aclTensor* mean, aclTensor* invstd,
                                                          double eps, aclTensor* output, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBatchNormElemt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
