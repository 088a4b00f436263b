/* pacl: out, indices = maximum of self along dim and the index of its first occurrence. */
#ifndef OP_API_INC_MAX_DIM_H_
#define OP_API_INC_MAX_DIM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out, aclTensor* indices,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxDim(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
