/* pacl: out = a random permutation of 0 .. n-1 (Philox 4x32-10 keys, sorted). */
#ifndef OP_API_INC_LEVEL2_ACLNN_RANDPERM_H_
#define OP_API_INC_LEVEL2_ACLNN_RANDPERM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRandpermGetWorkspaceSize(int64_t n, int64_t seed, int64_t offset, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRandperm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
