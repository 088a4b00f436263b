/* pacl: host-side float scale/offset -> uint64 quant parameters (calloc'ed; the caller free()s them). */
#ifndef OP_API_INC_TRANS_QUANT_PARAM_H_
#define OP_API_INC_TRANS_QUANT_PARAM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleSize, const float* offsetArray,
                                           uint64_t offsetSize, uint64_t** quantParam, uint64_t* quantParamSize);

#ifdef __cplusplus
}
#endif

#endif
