/* pacl: out = beta * self + alpha * (batch1 @ batch2) over a batch; self broadcasts to [b, m, n]. */
#ifndef OP_API_INC_BADDBMM_H_
#define OP_API_INC_BADDBMM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                                   const aclTensor* batch2, const aclScalar* beta,
                                                   const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBaddbmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* batch1,
                                                          const aclTensor* batch2, const aclScalar* beta,
                                                          const aclScalar* alpha, int8_t cubeMathType,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceBaddbmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
