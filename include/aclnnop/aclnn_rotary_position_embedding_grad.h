/* pacl: gradients of aclnnRotaryPositionEmbedding: dx, and dcos/dsin (summed over broadcast dims) when x is given. */
#ifndef OP_API_INC_ROTARY_POSITION_EMBEDDING_GRAD_H_
#define OP_API_INC_ROTARY_POSITION_EMBEDDING_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* cos,
                                                                       const aclTensor* sin, const aclTensor* xOptional,
                                                                       int64_t mode, const aclTensor* dxOut,
                                                                       const aclTensor* dcosOut, const aclTensor* dsinOut,
                                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRotaryPositionEmbeddingGrad(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
