/* pacl: out = input / (1 - p) kept with probability 1 - p, else 0; maskOut: the kept bits (Philox 4x32-10). */
#ifndef OP_API_INC_DROPOUT_H_
#define OP_API_INC_DROPOUT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor* input, double p, bool train, int64_t seed,
                                                   int64_t offset, aclTensor* out, aclTensor* maskOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnDropout(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
