/* pacl: selfRef's main diagonal (all indices equal) set to fillValue; wrap restarts it every cols + 1 rows of a tall matrix. */
#ifndef OP_API_INC_FILL_DIAGONAL_H_  /* CANN's header reuses aclnn_add.h's guard; pacl does not */
#define OP_API_INC_FILL_DIAGONAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceFillDiagonalGetWorkspaceSize(aclTensor* selfRef, const aclScalar* fillValue,
                                                               bool wrap, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFillDiagonal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
