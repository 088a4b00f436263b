/* pacl: IndexAdd with an implementation mode (0: the high-performance path with its extra limits, 1: general). */
#ifndef OP_API_INC_INDEX_ADD_V2_H_
#define OP_API_INC_INDEX_ADD_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexAddV2GetWorkspaceSize(const aclTensor* self, const int64_t dim,
                                                      const aclTensor* index, const aclTensor* source,
                                                      const aclScalar* alpha, int64_t mode, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexAddV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
