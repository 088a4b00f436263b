/* pacl: gradInput of ExpSegsum from gradOutput and the forward output gradSelf. */
#ifndef OP_API_INC_EXP_SEGSUM_BACKWARD_H_
#define OP_API_INC_EXP_SEGSUM_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExpSegsumBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* gradSelf,
        aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnExpSegsumBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
