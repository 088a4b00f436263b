/* pacl: dstTensor = srcTensor re-laid out between ND and FRACTAL_NZ ([.., ceil(n/C0), ceil(m/16), 16, C0] for a [.., m, n] view). */
#ifndef OP_API_INC_NPU_FORMAT_CAST_H_
#define OP_API_INC_NPU_FORMAT_CAST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNpuFormatCastGetWorkspaceSize(const aclTensor* srcTensor, aclTensor* dstTensor,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNpuFormatCast(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
ACLNN_API aclnnStatus aclnnNpuFormatCastCalculateSizeAndFormat(const aclTensor* srcTensor, const int dstFormat,
                                                               int additionalDtype, int64_t** dstShape,
                                                               uint64_t* dstShapeSize, int* actualFormat);

#ifdef __cplusplus
}
#endif

#endif
