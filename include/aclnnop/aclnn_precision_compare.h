/* pacl: out (0-d uint32) = 0 when golden and realdata are identical, else 503. */
#ifndef OP_API_INC_PRECISION_COMPARE_H_
#define OP_API_INC_PRECISION_COMPARE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPrecisionCompareGetWorkspaceSize(const aclTensor* golden, const aclTensor* realdata,
        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPrecisionCompare(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
