/* pacl: out = transpose(reshape(x, shape), perm), or reshape(transpose(x, perm), shape) when transposeFirst. */
#ifndef OP_API_INC_LEVEL2_CONFUSION_TRANSPOSE_H_
#define OP_API_INC_LEVEL2_CONFUSION_TRANSPOSE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConfusionTransposeGetWorkspaceSize(const aclTensor* x, const aclIntArray* perm,
                                                              const aclIntArray* shape, bool transpose_first,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConfusionTranspose(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
