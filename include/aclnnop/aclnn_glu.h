/* pacl: out = a * sigmoid(b), a and b the halves of self along dim. */
#ifndef PACL_ACLNN_GLU_H_
#define PACL_ACLNN_GLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
