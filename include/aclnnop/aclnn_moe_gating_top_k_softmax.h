/* pacl: MoE gating: softmax over the experts (last dim), then the top k per row with expert ids and row ids. */
#ifndef OP_API_INC_MOE_GATING_TOP_K_SOFTMAX_H_
#define OP_API_INC_MOE_GATING_TOP_K_SOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(const aclTensor* x, const aclTensor* finishedOptional,
                                                                int64_t k, const aclTensor* yOut,
                                                                const aclTensor* expertIdxOut,
                                                                const aclTensor* rowIdxOut, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMoeGatingTopKSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
