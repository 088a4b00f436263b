/* pacl: out = self + value * tensor1 / tensor2, broadcast over the three tensors, PyTorch type promotion;
   int64 divides with truncation (x / 0 gives 0). */
#ifndef OP_API_INC_ADDCDIV_H_
#define OP_API_INC_ADDCDIV_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,
                                                   const aclTensor* tensor2, const aclScalar* value,
                                                   const aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddcdiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   const aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                          const aclTensor* tensor2, const aclScalar* value,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceAddcdiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
