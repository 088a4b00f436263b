/* pacl: log_softmax + nll loss with label smoothing and z-loss. */
#ifndef PACL_ACLNN_CROSS_ENTROPY_LOSS_H_
#define PACL_ACLNN_CROSS_ENTROPY_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target,
                                                            const aclTensor* weightOptional,
                                                            char* reductionOptional, int64_t ignoreIndex,
                                                            double labelSmoothing, double lseSquareScaleForZloss,
                                                            bool returnZloss, const aclTensor* lossOut,
                                                            const aclTensor* logProbOut, const aclTensor* zlossOut,
                                                            const aclTensor* lseForZlossOut,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
