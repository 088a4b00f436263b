/* pacl: gradients of GroupNorm (gradInput, gradGammaOut, gradBetaOut by outputMask). */
#ifndef OP_API_INC_GROUP_NORM_BACKWARD_H_
#define OP_API_INC_GROUP_NORM_BACKWARD_H_

#ifdef __cplusplus
#include <array>  /* as CANN's header: programs rely on it */
#endif
#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                             const aclTensor* mean, const aclTensor* rstd,
                                                             const aclTensor* gamma, int64_t N, int64_t C, int64_t HxW,
                                                             int64_t group, const aclBoolArray* outputMask,
                                                             aclTensor* gradInput, aclTensor* gradGammaOut,
                                                             aclTensor* gradBetaOut, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnGroupNormBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
