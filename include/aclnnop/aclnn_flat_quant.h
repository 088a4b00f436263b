/* pacl: x'' = P1 @ x @ P2 per token, then per-token int4 quantization. */
#ifndef OP_API_INC_LEVEL2_ACLNN_FLAT_QUANT_H_
#define OP_API_INC_LEVEL2_ACLNN_FLAT_QUANT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlatQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* kroneckerP1,
                                                     const aclTensor* kroneckerP2, double clipRatio, aclTensor* out,
                                                     aclTensor* quantScale, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFlatQuant(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
