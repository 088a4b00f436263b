/* pacl: out = tensors[0] + tensors[1] + ..., broadcast to out. */
#ifndef OP_API_INC_SUM_H_
#define OP_API_INC_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
