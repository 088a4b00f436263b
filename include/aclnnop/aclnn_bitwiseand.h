/* pacl: out = self & other bitwise on integers (logical on bool); the same operation as
   aclnnBitwiseAndTensor. */
#ifndef OP_API_INC_BITWISE_AND_H_
#define OP_API_INC_BITWISE_AND_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseAndTensorOutGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBitwiseAndTensorOut(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
        uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorOut(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
