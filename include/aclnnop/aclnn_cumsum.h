/* pacl: out = running sum of self along dim (V2: exclusive and/or reversed). */
#ifndef OP_API_INC_LEVEL2_ACLNN_CUMSUM_H_
#define OP_API_INC_LEVEL2_ACLNN_CUMSUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCumsum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive, bool reverse, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCumsumV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
