/* pacl: out = input >> shiftBits (arithmetic for signed types) for integer tensors, broadcast. */
#ifndef OP_API_INC_LEVEL2_ACLNN_RIGHT_SHIFT_H_
#define OP_API_INC_LEVEL2_ACLNN_RIGHT_SHIFT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRightShiftGetWorkspaceSize(const aclTensor* input, const aclTensor* shiftBits, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRightShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
