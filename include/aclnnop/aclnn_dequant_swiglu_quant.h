/* pacl: dequantize (int32 x), SwiGLU of the two halves, then static or dynamic int8 quantization. */
#ifndef OP_API_INC_LEVEL2_ACLNN_DEQUANT_SWIGLU_QUANT_H_
#define OP_API_INC_LEVEL2_ACLNN_DEQUANT_SWIGLU_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(
    const aclTensor* x, const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
    const aclTensor* biasOptional, const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
    const aclTensor* groupIndexOptional, bool activateLeft, char* quantModeOptional, const aclTensor* yOut,
    const aclTensor* scaleOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDequantSwigluQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
