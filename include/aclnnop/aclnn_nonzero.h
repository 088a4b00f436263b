/* pacl: out[i, :] = coordinates of the i-th non-zero element of self (row-major order); out is sized for the most and its view shape is set to [N, self.dim()] when the kernel has run. */
#ifndef OP_API_INC_NONZERO_H_
#define OP_API_INC_NONZERO_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNonzero(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
