/* pacl: scatter along dim with a reduction (none, add, mul, max, min, mean), with or without self's values (torch.scatter_reduce). */
#ifndef OP_API_INC_SCATTER_REDUCE_H_
#define OP_API_INC_SCATTER_REDUCE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterReduceGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                         const aclTensor* src, int64_t reduce, bool includeSelf,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                         aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceScatterReduceGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                                const aclTensor* index, const aclTensor* src,
                                                                int64_t reduce, bool includeSelf,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceScatterReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
