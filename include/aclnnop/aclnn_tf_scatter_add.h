/* pacl: varRef[indices[i...], ...] += updates (tf.scatter_add), or varRef[indices[i..., :], ...] += updates (tf.scatter_nd_add). */
#ifndef OP_API_INC_SCATTER_ADD_H_
#define OP_API_INC_SCATTER_ADD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTfScatterAddGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices,
                                                        const aclTensor* updates, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTfScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
