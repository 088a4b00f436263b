// The classic aclnn walkthrough, written against the public CANN API only (it builds unchanged
// against a real CANN install): two float32 vectors of 1024 elements filled with 3.0 and 5.0 are
// added on the device through the two phases, the stream is synchronized, the result is copied
// back and every element is checked to be 8.0. Resources are released in the right order.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK_ACL(expr)                                                                         \
  do {                                                                                          \
    auto _ret = (expr);                                                                         \
    if (_ret != ACL_SUCCESS) {                                                                  \
      std::fprintf(stderr, "%s failed: %d: %s\n", #expr, static_cast<int>(_ret), aclGetRecentErrMsg()); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

int main() {
  const int32_t deviceId = 0;
  const int64_t n = 1024;
  const std::vector<int64_t> shape = {n};
  const std::vector<int64_t> strides = {1};
  const size_t bytes = n * sizeof(float);

  // 1. Runtime: initialize, pick a device, create a stream.
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(deviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  // 2. Device memory and tensors.
  std::vector<float> hostA(n, 3.0f), hostB(n, 5.0f), hostOut(n, 0.0f);
  void *devA = nullptr, *devB = nullptr, *devOut = nullptr;
  CHECK_ACL(aclrtMalloc(&devA, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&devB, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&devOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(devA, bytes, hostA.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(devB, bytes, hostB.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclTensor* a = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                 shape.data(), shape.size(), devA);
  aclTensor* b = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                 shape.data(), shape.size(), devB);
  aclTensor* out = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                   shape.data(), shape.size(), devOut);
  float alphaValue = 1.0f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  if (!a || !b || !out || !alpha) {
    std::fprintf(stderr, "creating tensors failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }

  // 3. Phase 1: validate, plan, and learn the workspace size.
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_ACL(aclnnAddGetWorkspaceSize(a, b, alpha, out, &workspaceSize, &executor));
  void* workspace = nullptr;
  if (workspaceSize > 0) CHECK_ACL(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));

  // 4. Phase 2: enqueue on the stream, then wait for it.
  CHECK_ACL(aclnnAdd(workspace, workspaceSize, executor, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));

  // 5. Copy back and verify every element.
  CHECK_ACL(aclrtMemcpy(hostOut.data(), bytes, devOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    if (hostOut[i] != 8.0f) ++wrong;
  std::printf("add_walkthrough: %lld elements, result[0] = %.1f, result[%lld] = %.1f: %s\n", (long long)n, hostOut[0],
              (long long)(n - 1), hostOut[n - 1], wrong == 0 ? "all 8.0, PASS" : "FAIL");

  // 6. Release in order: workspace, tensors and scalars, device memory, stream, device, runtime.
  if (workspace) CHECK_ACL(aclrtFree(workspace));
  aclDestroyTensor(a);
  aclDestroyTensor(b);
  aclDestroyTensor(out);
  aclDestroyScalar(alpha);
  CHECK_ACL(aclrtFree(devA));
  CHECK_ACL(aclrtFree(devB));
  CHECK_ACL(aclrtFree(devOut));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  return wrong == 0 ? 0 : 1;
}
