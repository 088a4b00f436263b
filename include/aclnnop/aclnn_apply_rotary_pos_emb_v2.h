/* pacl: rotary position embedding of query and key in place, rotary mode half, quarter or interleave. */
#ifndef OP_API_INC_APPLY_ROTARY_POS_EMB_V2_H_
#define OP_API_INC_APPLY_ROTARY_POS_EMB_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                               const aclTensor* cos, const aclTensor* sin,
                                                               int64_t layout, char* rotaryMode,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyRotaryPosEmbV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
