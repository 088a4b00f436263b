/* pacl: out = self << shiftBits for integer tensors (tensor or scalar shiftBits), broadcast. */
#ifndef OP_API_INC_LEVEL2_ACLNN_LEFT_SHIFT_H_
#define OP_API_INC_LEVEL2_ACLNN_LEFT_SHIFT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeftShiftGetWorkspaceSize(const aclTensor* self, const aclTensor* shiftBits, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeftShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnLeftShiftsGetWorkspaceSize(const aclTensor* self, const aclScalar* shiftBits, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeftShifts(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
