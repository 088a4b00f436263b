/* pacl: loss = -sum(labels * log_softmax(features)) per row, backprop = softmax(features) - labels. */
#ifndef OP_API_INC_LEVEL2_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_H_
#define OP_API_INC_LEVEL2_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features, aclTensor* labels,
                                                                         aclTensor* loss, aclTensor* backprop,
                                                                         uint64_t* workspaceSize,
                                                                         aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnSoftmaxCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
