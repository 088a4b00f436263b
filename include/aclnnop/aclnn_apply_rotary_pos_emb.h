/* pacl: rotary position embedding of query and key in place: x = x*cos + rotate_half(x)*sin. */
#ifndef OP_API_INC_APPLY_ROTARY_POS_EMB_H_
#define OP_API_INC_APPLY_ROTARY_POS_EMB_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef, const aclTensor* cos,
                                                             const aclTensor* sin, int64_t layout, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyRotaryPosEmb(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
