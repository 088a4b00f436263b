/* pacl: SwiGluQuant with groupListType (0 cumsum, 1 count) and dstType. */
#ifndef OP_API_INC_LEVEL2_ACLNN_SWI_GLU_QUANT_V2_H_
#define OP_API_INC_LEVEL2_ACLNN_SWI_GLU_QUANT_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwiGluQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                                         const aclTensor* offsetsOptional,
                                                         const aclTensor* groupIndexOptional, bool activateLeft,
                                                         char* quantModeOptional, int64_t groupListType,
                                                         int64_t dstType, const aclTensor* yOut,
                                                         const aclTensor* scaleOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSwiGluQuantV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
