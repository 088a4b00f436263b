/* pacl: gradIn = the gradient of Tensor.unfold(dim, size, step): gradOut summed back onto the windows' elements. */
#ifndef OP_API_INC_UNFOLD_GRAD_H_
#define OP_API_INC_UNFOLD_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUnfoldGradGetWorkspaceSize(const aclTensor* gradOut, const aclIntArray* inputSizes,
                                                      int64_t dim, int64_t size, int64_t step, const aclTensor* gradIn,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnUnfoldGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
