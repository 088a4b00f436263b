/* pacl: out = self is -inf (bool). */
#ifndef OP_API_INC_ISNEGINF_H_
#define OP_API_INC_ISNEGINF_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIsNegInfGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIsNegInf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
