/* pacl: out = (self - mean) * rstd * gamma + beta over groups of channels; meanOut, rstdOut are [N, group]. */
#ifndef OP_API_INC_GROUP_NORM_H_
#define OP_API_INC_GROUP_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                     const aclTensor* beta, int64_t N, int64_t C, int64_t HxW,
                                                     int64_t group, double eps, aclTensor* out, aclTensor* meanOut,
                                                     aclTensor* rstdOut, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnGroupNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
