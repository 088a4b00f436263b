/* pacl: blockwise dynamic quantization: one scale per rowBlockSize x colBlockSize block. */
#ifndef OP_API_INC_LEVEL2_ACLNN_DYNAMIC_BLOCK_QUANT_H_
#define OP_API_INC_LEVEL2_ACLNN_DYNAMIC_BLOCK_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDynamicBlockQuantGetWorkspaceSize(const aclTensor* x, double minScale,
                                                             char* roundModeOptional, int64_t dstType,
                                                             int64_t rowBlockSize, int64_t colBlockSize,
                                                             const aclTensor* yOut, const aclTensor* scaleOut,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDynamicBlockQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
