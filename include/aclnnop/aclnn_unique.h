/* pacl: valueOut = the distinct elements of self (ascending); inverseOut[i] = position of self[i] in valueOut. valueOut's view shape is set when the kernel has run. */
#ifndef OP_API_INC_UNIQUE_H_
#define OP_API_INC_UNIQUE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUniqueGetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse,
                                                  aclTensor* valueOut, aclTensor* inverseOut, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnUnique(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
