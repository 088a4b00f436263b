/* pacl: gradient of BinaryCrossEntropy. */
#ifndef PACL_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H_
#define PACL_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                      const aclTensor* self,
                                                                      const aclTensor* target,
                                                                      const aclTensor* weightOptional,
                                                                      int64_t reduction, aclTensor* out,
                                                                      uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
