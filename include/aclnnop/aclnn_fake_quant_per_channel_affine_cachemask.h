/* pacl: fake quantization with one scale/zeroPoint per index of self's dim axis, plus the in-range mask. */
#ifndef OP_API_INC_FAKE_QUANT_PER_CHANNEL_AFFINE_CACHEMASK_H_
#define OP_API_INC_FAKE_QUANT_PER_CHANNEL_AFFINE_CACHEMASK_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(
    const aclTensor* self, const aclTensor* scale, const aclTensor* zeroPoint, int64_t axis, int64_t quantMin,
    int64_t quantMax, aclTensor* out, aclTensor* mask, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFakeQuantPerChannelAffineCachemask(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
