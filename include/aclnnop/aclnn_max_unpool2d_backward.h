/* pacl: out[n, c, i] = gradOutput[n, c, indices[n, c, i]] over the flattened H x W planes (backward of MaxUnpool2d). */
#ifndef OP_API_INC_MAX_UNPOOL2d_BACKWARD_H_
#define OP_API_INC_MAX_UNPOOL2d_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxUnpool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                               const aclTensor* indices,
                                                               const aclIntArray* outputSize, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxUnpool2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
