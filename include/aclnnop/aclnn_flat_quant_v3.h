/* pacl: FlatQuantV2 with a groupList limiting the rows processed. */
#ifndef OP_API_INC_LEVEL2_ACLNN_FLAT_QUANT_V3_H_
#define OP_API_INC_LEVEL2_ACLNN_FLAT_QUANT_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlatQuantV3GetWorkspaceSize(const aclTensor* x, const aclTensor* kroneckerP1,
                                                       const aclTensor* kroneckerP2, const aclTensor* groupListOptional,
                                                       double clipRatio, double dstTypeMax, int64_t groupListType,
                                                       aclTensor* out, aclTensor* quantScale, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFlatQuantV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
