/* pacl: out = one-hot encoding of self along a new axis of numClasses entries: onValue where self == class, else offValue. */
#ifndef OP_API_INC_LEVEL2_ACLNN_ONE_HOT_H_
#define OP_API_INC_LEVEL2_ACLNN_ONE_HOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue,
                                                  const aclTensor* offValue, int64_t axis, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnOneHot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
