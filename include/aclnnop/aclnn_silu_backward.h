/* pacl: gradInput = gradOutput * s(self) * (1 + self * (1 - s(self))), s the sigmoid. */
#ifndef OP_API_INC_LEVEL2_ACLNN_SILU_BACKWARD_H_
#define OP_API_INC_LEVEL2_ACLNN_SILU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
        aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSiluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
