/* pacl: output[b] = sum / mean / max of the weight rows named by bag b's indices (torch.nn.functional.embedding_bag), with offset2bag, bagSize and maxIndices as PyTorch's _embedding_bag returns them. */
#ifndef OP_API_INC_EMBEDDING_BAG_H_
#define OP_API_INC_EMBEDDING_BAG_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingBagGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                                        const aclTensor* offsets, bool scaleGradByFreq, int64_t mode,
                                                        bool sparse, const aclTensor* perSampleWeights,
                                                        bool includeLastOffset, int64_t paddingIdx, aclTensor* output,
                                                        aclTensor* offset2bag, aclTensor* bagSize,
                                                        aclTensor* maxIndices, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbeddingBag(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
