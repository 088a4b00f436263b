/* pacl: Nonzero transposed: out[:, i] = coordinates of the i-th non-zero element; the view shape is set to [self.dim(), N] when the kernel has run. */
#ifndef OP_API_INC_NONZERO_V2_H_
#define OP_API_INC_NONZERO_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNonzeroV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
