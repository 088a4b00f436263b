/* pacl: gradient of the chamfer distance with respect to both point sets. */
#ifndef PACL_ACLNN_CHAMFER_DISTANCE_BACKWARD_H_
#define PACL_ACLNN_CHAMFER_DISTANCE_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnChamferDistanceBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                   aclrtStream stream);
ACLNN_API aclnnStatus aclnnChamferDistanceBackwardGetWorkspaceSize(const aclTensor* xyz1, const aclTensor* xyz2,
                                                                   const aclTensor* idx1, const aclTensor* idx2,
                                                                   const aclTensor* gradDist1,
                                                                   const aclTensor* gradDist2, aclTensor* gradXyz1,
                                                                   aclTensor* gradXyz2, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);

#ifdef __cplusplus
}
#endif

#endif
