/* pacl: sum and squareSum of x per channel (dim 1). */
#ifndef OP_API_INC_BATCH_NORM_REDUCE_H_
#define OP_API_INC_BATCH_NORM_REDUCE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormReduceGetWorkspaceSize(const aclTensor* x, aclTensor* sum, aclTensor* squareSum,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnBatchNormReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
