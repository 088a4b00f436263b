/* pacl: gradients of AddLayerNorm: dxOut (+ dsumOptional), dgammaOut, dbetaOut. */
#ifndef OP_API_INC_ADD_LAYER_NORM_GRAD_H_
#define OP_API_INC_ADD_LAYER_NORM_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddLayerNormGradGetWorkspaceSize(const aclTensor* dy, const aclTensor* x1, const aclTensor* x2,
                                                            const aclTensor* rstd, const aclTensor* mean,
                                                            const aclTensor* gamma, const aclTensor* dsumOptional,
                                                            const aclTensor* dxOut, const aclTensor* dgammaOut,
                                                            const aclTensor* dbetaOut, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnAddLayerNormGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
