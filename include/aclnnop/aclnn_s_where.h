/* pacl: out = condition ? self : other, broadcast over all three, computed in the promoted dtype of self and
   other and converted to out's dtype. */
#ifndef OP_API_INC_SWHERE_H_
#define OP_API_INC_SWHERE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self,
                                                  const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSWhere(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
