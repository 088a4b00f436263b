/* pacl: for each i: newIndices[uniqueIndices[i]] = indices[i], newValues[uniqueIndices[i]] += values[i]
   (newValues accumulates onto what it holds, as CANN's kernel: zero it first). */
#ifndef ACLNN_COALESCE_SPARSE_H_
#define ACLNN_COALESCE_SPARSE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCoalesceSparseGetWorkspaceSize(const aclTensor* uniqueLen, const aclTensor* uniqueIndices,
                                                          const aclTensor* indices, const aclTensor* values,
                                                          const aclTensor* newIndicesOut,
                                                          const aclTensor* newValuesOut, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCoalesceSparse(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
