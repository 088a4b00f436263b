/* pacl: mean squared error (self - target)^2 with reduction 0 none, 1 mean, 2 sum. */
#ifndef PACL_ACLNN_MSE_LOSS_H_
#define PACL_ACLNN_MSE_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                   int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
