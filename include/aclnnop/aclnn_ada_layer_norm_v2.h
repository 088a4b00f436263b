/* pacl: AdaLayerNorm with meanOutOptional and rstdOutOptional. */
#ifndef OP_API_INC_LEVEL2_ACLNN_ADA_LAYER_NORM_V2_H
#define OP_API_INC_LEVEL2_ACLNN_ADA_LAYER_NORM_V2_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaLayerNormV2GetWorkspaceSize(const aclTensor* x, const aclTensor* scale,
                                                          const aclTensor* shift, const aclTensor* weightOptional,
                                                          const aclTensor* biasOptional, double epsilon, aclTensor* out,
                                                          aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnAdaLayerNormV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
