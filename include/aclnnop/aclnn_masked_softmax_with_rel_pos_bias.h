/* pacl: out = softmax(scaleValue * x + attenMaskOptional + relativePosBias) over the last dim. */
#ifndef OP_API_INC_MASKED_SOFTMAX_WITH_REL_POS_BIAS_H_
#define OP_API_INC_MASKED_SOFTMAX_WITH_REL_POS_BIAS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(const aclTensor* x,
                                                                       const aclTensor* attenMaskOptional,
                                                                       const aclTensor* relativePosBias,
                                                                       double scaleValue, int64_t innerPrecisionMode,
                                                                       const aclTensor* out, uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnMaskedSoftmaxWithRelPosBias(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
