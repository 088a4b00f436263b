/* pacl: out = logits with everything outside each row's top-k and top-p (nucleus) set to -inf. */
#ifndef OP_API_INC_APPLY_TOP_K_TOP_P_H_
#define OP_API_INC_APPLY_TOP_K_TOP_P_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnApplyTopKTopPGetWorkspaceSize(const aclTensor* logits, const aclTensor* p,
                                                         const aclTensor* k, aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnApplyTopKTopP(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
