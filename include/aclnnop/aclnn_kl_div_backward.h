/* pacl: gradient of KlDiv with respect to self. */
#ifndef PACL_ACLNN_KL_DIV_BACKWARD_H_
#define PACL_ACLNN_KL_DIV_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                         const aclTensor* target, int64_t reduction, bool logTarget,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnKlDivBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
