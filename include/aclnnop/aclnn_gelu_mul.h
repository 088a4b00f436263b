/* pacl: out = gelu(x1) * x2, x1 and x2 the halves of the last dim. */
#ifndef PACL_ACLNN_GELU_MUL_H_
#define PACL_ACLNN_GELU_MUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluMulGetWorkspaceSize(const aclTensor* input, char* approximateOptional,
                                                   const aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
