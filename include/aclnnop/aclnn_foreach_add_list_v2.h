/* pacl: out[i] = x1[i] + alpha * x2[i] (alpha an aclScalar). */
#ifndef OP_API_INC_FOREACH_ADD_LIST_V2_H_
#define OP_API_INC_FOREACH_ADD_LIST_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachAddListV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                            const aclScalar* alpha, aclTensorList* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachAddListV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
