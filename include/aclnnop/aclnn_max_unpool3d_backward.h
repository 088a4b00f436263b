/* pacl: out[n, c, i] = gradOutput[n, c, indices[n, c, i]] over the flattened D x H x W volumes (backward of MaxUnpool3d). */
#ifndef OP_API_INC_MAX_UNPOOL3D_BACKWARD_H_
#define OP_API_INC_MAX_UNPOOL3D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxUnpool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                               const aclTensor* indices,
                                                               const aclIntArray* outputSize,
                                                               const aclIntArray* stride, const aclIntArray* padding,
                                                               aclTensor* out, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxUnpool3dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
