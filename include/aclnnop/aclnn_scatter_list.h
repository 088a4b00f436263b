/* pacl: for each tensor i of varRef (unless maskOptional[i] == 0): the slice along axis starting at indice[i] (length updates.shape[axis], or indice[i][1] for 2-d indice) is replaced by updates[i]. */
#ifndef OP_API_INC_SCATTER_LIST_H_
#define OP_API_INC_SCATTER_LIST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterListGetWorkspaceSize(aclTensorList* varRef, const aclTensor* indice,
                                                       const aclTensor* updates, const aclTensor* maskOptional,
                                                       char* reduceOptional, int64_t axis, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterList(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
