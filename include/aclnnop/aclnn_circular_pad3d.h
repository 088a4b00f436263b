/* pacl: out = self padded circularly (wrapping around) over its last 3 dims. */
#ifndef OP_API_INC_CIRCULAR_PAD3D_H_
#define OP_API_INC_CIRCULAR_PAD3D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCircularPad3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCircularPad3d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
