/* pacl: float32 scale/offset -> int64/uint64 quant parameter words (scale truncated to FP19). */
#ifndef OP_API_INC_TRANS_QUANT_PARAM_V2_H_
#define OP_API_INC_TRANS_QUANT_PARAM_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransQuantParamV2GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                             const aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransQuantParamV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
