/* pacl: out = round(x / scales + zeroPoints), parameters per index of x's dim axis. */
#ifndef OP_API_INC_QUANTIZE_H_
#define OP_API_INC_QUANTIZE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnQuantizeGetWorkspaceSize(const aclTensor* x, const aclTensor* scales,
                                                    const aclTensor* zeroPoints, aclDataType dtype, int32_t axis,
                                                    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnQuantize(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
