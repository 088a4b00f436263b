/* pacl: y = round(x * scale [* scale] + offset), scale/offset per index of x's dim axis. */
#ifndef OP_API_INC_LEVEL2_ACLNN_ASCEND_QUANT_V3_H_
#define OP_API_INC_LEVEL2_ACLNN_ASCEND_QUANT_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAscendQuantV3GetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                         const aclTensor* offset, bool sqrtMode, const char* roundMode,
                                                         int32_t dstType, int32_t axis, const aclTensor* y,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAscendQuantV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
