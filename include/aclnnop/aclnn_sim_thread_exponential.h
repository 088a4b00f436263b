/* pacl: selfRef's first count elements filled with samples of the exponential distribution of rate lambda. */
#ifndef OP_API_INC_SIM_THREAD_EXPONENTIAL_H_
#define OP_API_INC_SIM_THREAD_EXPONENTIAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSimThreadExponentialGetWorkspaceSize(aclTensor* selfRef, int64_t count, double lambda,
                                                                int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSimThreadExponential(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
