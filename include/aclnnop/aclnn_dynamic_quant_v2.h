/* pacl: per-row dynamic quantization, symmetric or (with offsetOut) asymmetric, MoE smooth scales per group. */
#ifndef OP_API_INC_LEVEL2_ACLNN_DYNAMIC_QUANT_V2_H_
#define OP_API_INC_LEVEL2_ACLNN_DYNAMIC_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDynamicQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                                          const aclTensor* groupIndexOptional, int64_t dstType,
                                                          const aclTensor* yOut, const aclTensor* scaleOut,
                                                          const aclTensor* offsetOut, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDynamicQuantV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
