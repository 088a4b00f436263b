/* pacl: GatherV2 with leading batch dims shared by self and index (batchDims); mode is a performance hint. */
#ifndef OP_API_INC_LEVEL2_ACLNN_GATHER_V3_H_
#define OP_API_INC_LEVEL2_ACLNN_GATHER_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV3GetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                    int64_t batchDims, int64_t mode, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
