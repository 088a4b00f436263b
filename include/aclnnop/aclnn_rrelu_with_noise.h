/* pacl: randomized leaky relu with a noise tensor (slopes drawn from U(lower, upper) when training). */
#ifndef PACL_ACLNN_RRELU_WITH_NOISE_H_
#define PACL_ACLNN_RRELU_WITH_NOISE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRReluWithNoiseGetWorkspaceSize(const aclTensor* self, const aclTensor* noise,
                                                          const aclScalar* lower, const aclScalar* upper,
                                                          bool training, int64_t seed, int64_t offset,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceRReluWithNoiseGetWorkspaceSize(const aclTensor* self, const aclTensor* noise,
                                                                 const aclScalar* lower, const aclScalar* upper,
                                                                 bool training, int64_t seed, int64_t offset,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRReluWithNoise(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceRReluWithNoise(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
