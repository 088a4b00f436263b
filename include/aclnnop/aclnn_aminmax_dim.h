/* pacl: minOut, maxOut = minimum and maximum of self along dim. */
#ifndef OP_API_INC_AMINMAX_DIM_H_
#define OP_API_INC_AMINMAX_DIM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAminmaxDimGetWorkspaceSize(const aclTensor* self, const int64_t dim, bool keepDim, aclTensor* minOut, aclTensor* maxOut,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAminmaxDim(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
