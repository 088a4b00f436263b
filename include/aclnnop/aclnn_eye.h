/* pacl: out = the n x m matrix with ones on its main diagonal, zeros elsewhere. */
#ifndef OP_API_INC_LEVEL2_ACLNN_EYE_H_
#define OP_API_INC_LEVEL2_ACLNN_EYE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEyeGetWorkspaceSize(int64_t n, int64_t m, aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEye(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
