/* pacl: out = max(0, x) + w * min(0, x), w per channel (dim 1) or one value. */
#ifndef PACL_ACLNN_PRELU_H_
#define PACL_ACLNN_PRELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor* self, const aclTensor* weight, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPrelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
