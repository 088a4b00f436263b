/* pacl: x = float(x1) + float(x2); y1Out = RmsNorm(x) * gamma (float32), y2Out = y1Out cast to x1's dtype. */
#ifndef OP_API_INC_ADD_RMS_NORM_CAST_H_
#define OP_API_INC_ADD_RMS_NORM_CAST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddRmsNormCastGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                                          double epsilon, const aclTensor* y1Out, const aclTensor* y2Out,
                                                          const aclTensor* rstdOut, const aclTensor* xOut,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnAddRmsNormCast(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
