/* pacl: TopKTopPSample with min-p filtering, probability inputs and the sorted intermediate results. */
#ifndef OP_API_INC_TOP_K_TOP_P_SAMPLE_V2_H_
#define OP_API_INC_TOP_K_TOP_P_SAMPLE_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTopKTopPSampleV2GetWorkspaceSize(const aclTensor* logits, const aclTensor* topK,
                                                            const aclTensor* topP, const aclTensor* q,
                                                            const aclTensor* minPs, double eps, bool isNeedLogits,
                                                            int64_t topKGuess, int64_t ksMax, bool inputIsLogits,
                                                            bool isNeedSampleResult, const aclTensor* logitsSelectIdx,
                                                            const aclTensor* logitsTopKPSelect,
                                                            const aclTensor* logitsIdx,
                                                            const aclTensor* logitsSortMasked,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTopKTopPSampleV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
