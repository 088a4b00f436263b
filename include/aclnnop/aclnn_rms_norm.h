/* pacl: yOut = x * rstd * gamma over gamma's trailing dims; rstd = 1 / sqrt(mean(x^2) + epsilon). */
#ifndef OP_API_INC_RMS_NORM_H_
#define OP_API_INC_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                                   const aclTensor* yOut, const aclTensor* rstdOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
