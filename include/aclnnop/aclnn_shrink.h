/* pacl: out = self - bias (self > lambd), self + bias (self < -lambd), else 0. */
#ifndef PACL_ACLNN_SHRINK_H_
#define PACL_ACLNN_SHRINK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnShrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd,
                                                  const aclScalar* bias, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnShrink(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
