/* pacl: binary cross entropy of logits, optional weight and posWeight, reduction. */
#ifndef PACL_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_
#define PACL_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* self,
                                                                        const aclTensor* target,
                                                                        const aclTensor* weightOptional,
                                                                        const aclTensor* posWeightOptional,
                                                                        int64_t reduction, aclTensor* out,
                                                                        uint64_t* workspaceSize,
                                                                        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize,
                                                        aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
