/* pacl: out = the sliding kernelSize blocks of self (N, C, H, W) as columns: (N, C * kh * kw, L), zero padded. */
#ifndef OP_API_INC_IM2COL_H_
#define OP_API_INC_IM2COL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                  const aclIntArray* dilation, const aclIntArray* padding,
                                                  const aclIntArray* stride, const aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIm2col(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
