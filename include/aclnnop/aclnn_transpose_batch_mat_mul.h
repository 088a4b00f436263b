/* pacl: out = (x1.permute(permX1) @ x2.permute(permX2)).permute(permY), optionally batch-split. */
#ifndef OP_API_INC_TRANSPOSE_BATCH_MAT_MUL
#define OP_API_INC_TRANSPOSE_BATCH_MAT_MUL

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransposeBatchMatMulGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                                                const aclTensor* bias, const aclTensor* scale,
                                                                const aclIntArray* permX1, const aclIntArray* permX2,
                                                                const aclIntArray* permY, int8_t cubeMathType,
                                                                const int32_t batchSplitFactor, aclTensor* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransposeBatchMatMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
