/* pacl: out = 0 (input < 0), values (input == 0), 1 (input > 0). */
#ifndef PACL_ACLNN_HEAVISIDE_H_
#define PACL_ACLNN_HEAVISIDE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHeavisideGetWorkspaceSize(const aclTensor* input, const aclTensor* values,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHeaviside(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
