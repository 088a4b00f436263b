/* pacl: dequantize, Situ activation of the two halves, then static or dynamic int8 quantization (truncating). */
#ifndef OP_API_INC_LEVEL2_ACLNN_DEQUANT_SITU_QUANT_H_
#define OP_API_INC_LEVEL2_ACLNN_DEQUANT_SITU_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantSituQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
    const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* groupIndexOptional, float beta, float linearBeta, bool activateLeft, char* quantTypeOptional,
    const aclTensor* yOut, const aclTensor* yScaleOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantSituQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
