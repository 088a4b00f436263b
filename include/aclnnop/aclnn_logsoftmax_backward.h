/* pacl: out = gradOutput - exp(output) * sum(gradOutput) along dim. */
#ifndef OP_API_INC_LOGSOFTMAX_BACKWARD_H_
#define OP_API_INC_LOGSOFTMAX_BACKWARD_H_

#ifdef __cplusplus
#include <array>  /* as CANN's header: programs rely on it */
#endif
#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                              int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
