/* pacl: FlatQuant with dstTypeMax (per-group float4 outputs). */
#ifndef OP_API_INC_LEVEL2_ACLNN_FLAT_QUANT_V2_H_
#define OP_API_INC_LEVEL2_ACLNN_FLAT_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlatQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* kroneckerP1,
                                                       const aclTensor* kroneckerP2, double clipRatio,
                                                       double dstTypeMax, aclTensor* out, aclTensor* quantScale,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFlatQuantV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
