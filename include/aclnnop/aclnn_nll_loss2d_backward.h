/* pacl: gradient of NLLLoss2d. */
#ifndef PACL_ACLNN_NLL_LOSS2D_BACKWARD_H_
#define PACL_ACLNN_NLL_LOSS2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                             const aclTensor* target, const aclTensor* weight,
                                                             int64_t reduction, int64_t ignoreIndex,
                                                             aclTensor* totalWeight, aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNLLLoss2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
