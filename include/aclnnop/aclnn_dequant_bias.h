/* pacl: int32 [M, N] -> float16/bfloat16: x * weightScale * activateScale with an int32 or floating bias. */
#ifndef OP_API_INC_LEVEL2_ACLNN_DEQUANT_BIAS_H_
#define OP_API_INC_LEVEL2_ACLNN_DEQUANT_BIAS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantBiasGetWorkspaceSize(const aclTensor* x, const aclTensor* weightScale,
                                                       const aclTensor* activateScaleOptional,
                                                       const aclTensor* biasOptional, int64_t outputDtype,
                                                       const aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantBias(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
