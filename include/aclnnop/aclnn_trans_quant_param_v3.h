/* pacl: TransQuantParamV2 with roundMode: 0 truncates the scale to FP19, 1 rounds it. */
#ifndef OP_API_INC_TRANS_QUANT_PARAM_V3_H_
#define OP_API_INC_TRANS_QUANT_PARAM_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransQuantParamV3GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                             int64_t roundMode, const aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransQuantParamV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
