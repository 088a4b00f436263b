/* pacl: gradient of FastGelu. */
#ifndef PACL_ACLNN_FAST_GELU_BACKWARD_H_
#define PACL_ACLNN_FAST_GELU_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFastGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            aclTensor* gradInput, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFastGeluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
