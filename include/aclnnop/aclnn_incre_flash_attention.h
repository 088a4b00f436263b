/* pacl: decode attention: one query row per batch against a key/value cache. */
#ifndef ACLNN_INCRE_FLASH_ATTENTION_H_
#define ACLNN_INCRE_FLASH_ATTENTION_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIncreFlashAttentionGetWorkspaceSize(const aclTensor *query, const aclTensorList *key,
                                                               const aclTensorList *value, const aclTensor *pseShift,
                                                               const aclTensor *attenMask,
                                                               const aclIntArray *actualSeqLengths, int64_t numHeads,
                                                               double scaleValue, char *inputLayout,
                                                               int64_t numKeyValueHeads, const aclTensor *attentionOut,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnIncreFlashAttention(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
