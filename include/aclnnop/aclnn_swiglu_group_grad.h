/* pacl: backward of silu(x0) * x1 with an optional MoE row weight, clamp and groupIndex row cut-off. */
#ifndef OP_API_INC_LEVEL2_ACLNN_SWIGLU_GROUP_GRAD_H_
#define OP_API_INC_LEVEL2_ACLNN_SWIGLU_GROUP_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwigluGroupGradGetWorkspaceSize(const aclTensor* gradY, const aclTensor* x,
                                                           const aclTensor* weightOptional,
                                                           const aclTensor* yOriginOptional,
                                                           const aclTensor* groupIndexOptional, float clampLimit,
                                                           aclTensor* gradXOut, aclTensor* gradWeightOutOptional,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwigluGroupGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
