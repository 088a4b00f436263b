/* pacl: out = x / (1 + exp(-1.702 x)). */
#ifndef PACL_ACLNN_FAST_GELU_H_
#define PACL_ACLNN_FAST_GELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFastGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFastGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
