/* pacl: foundInf = 1 if any scaledGrads element is inf or NaN; then scaledGrads[i] *= invScale. */
#ifndef OP_API_INC_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H_
#define OP_API_INC_FOREACH_NON_FINITE_CHECK_AND_UNSCALE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(const aclTensorList* scaledGrads,
                                                                           const aclTensor* foundInf,
                                                                           const aclTensor* invScale,
                                                                           uint64_t* workspaceSize,
                                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnForeachNonFiniteCheckAndUnscale(void* workspace, uint64_t workspaceSize,
                                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
