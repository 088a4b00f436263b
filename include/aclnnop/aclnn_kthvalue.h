/* pacl: valuesOut/indicesOut = the k-th smallest element (1-based) of self along dim and its position. */
#ifndef OP_API_INC_KTHVALUE_H_
#define OP_API_INC_KTHVALUE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnKthvalueGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool keepdim,
                                                    aclTensor* valuesOut, aclTensor* indicesOut,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnKthvalue(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
