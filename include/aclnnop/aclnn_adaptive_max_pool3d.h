/* pacl: 3-d adaptive max pooling with the position of each max ((d*H + h)*W + w per plane). */
#ifndef OP_API_INC_ADAPTIVE_MAX_POOL3D_H_
#define OP_API_INC_ADAPTIVE_MAX_POOL3D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                             aclTensor* outputOut, aclTensor* indicesOut,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool3d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
