/* pacl: out = self with dim replaced by index's dims: out[a, i..., b] = self[a, index[i...], b]. */
#ifndef OP_API_INC_LEVEL2_ACLNN_GATHER_V2_H_
#define OP_API_INC_LEVEL2_ACLNN_GATHER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
