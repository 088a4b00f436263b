/* pacl extension (not part of CANN): what this pacl build implements and how it was built. */
#ifndef PACL_INFO_H_
#define PACL_INFO_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0". */
__attribute__((visibility("default"))) const char* paclVersion(void);
/* The implemented aclnn ops, in registry order: count, and for index i in [0, count) the op name
 * ("Add": entry points aclnnAddGetWorkspaceSize and aclnnAdd) and its header ("aclnn_add.h").
 * NULL for an index out of range. */
__attribute__((visibility("default"))) int paclOpCount(void);
__attribute__((visibility("default"))) const char* paclOpName(int index);
__attribute__((visibility("default"))) const char* paclOpHeader(int index);
/* Intra-op threads (PACL_NUM_THREADS, default the number of CPUs). */
__attribute__((visibility("default"))) int paclThreadCount(void);
/* The kernel that phase 1 chose for a live executor ("elementwise<float32>", ...; "" when the op
 * has nothing to run, e.g. an empty output); NULL when `executor` is not a live executor. The text
 * lives as long as the executor. */
__attribute__((visibility("default"))) const char* paclExecutorKernelName(const aclOpExecutor* executor);
/* Everything the acl_meta.h getters report about a tensor, read with one handle check and no
 * allocation (aclGetViewShape & co. each validate the handle and return a new array). The arrays
 * point into the tensor: valid until it is destroyed or changed (aclInitTensor, aclSetViewShape,
 * aclSetRawTensorAddr, ...). Returns 0, or the getters' status for a null or dead handle. */
typedef struct paclTensorView {
  int32_t dataType;        /* aclDataType, as aclGetDataType */
  int32_t format;          /* aclFormat, as aclGetFormat */
  uint64_t viewDimsNum;    /* as aclGetViewShape */
  const int64_t* viewDims;
  const int64_t* strides;  /* viewDimsNum entries, as aclGetViewStrides */
  uint64_t storageDimsNum; /* as aclGetStorageShape */
  const int64_t* storageDims;
  int64_t offset;          /* elements, as aclGetViewOffset */
  void* data;              /* storage base, as aclGetRawTensorAddr */
} paclTensorView;
__attribute__((visibility("default"))) aclnnStatus paclGetTensorView(const aclTensor* tensor, paclTensorView* view);
/* One line per dependency and build setting: "fmt 9.1.0", "compiler GCC 12.2.0", ... */
__attribute__((visibility("default"))) const char* paclBuildInfo(void);

#ifdef __cplusplus
}
#endif

#endif /* PACL_INFO_H_ */
