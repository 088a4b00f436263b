/* pacl: out = relu(x)^2. */
#ifndef PACL_ACLNN_SQUARED_RELU_H_
#define PACL_ACLNN_SQUARED_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSquaredReluGetWorkspaceSize(const aclTensor* input, const aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSquaredRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
