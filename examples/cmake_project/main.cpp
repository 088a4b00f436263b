// out = a + 2 * b on 8 floats through the two-phase API, built with find_package(pacl).
#include <cstdio>
#include <initializer_list>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(expr)                                                              \
  do {                                                                           \
    if ((expr) != 0) {                                                           \
      std::fprintf(stderr, "%s failed: %s\n", #expr, aclGetRecentErrMsg());      \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  const int64_t n = 8, shape[1] = {n}, strides[1] = {1};
  std::vector<float> a(n, 1.0f), b(n, 3.0f), out(n);
  void *da = nullptr, *db = nullptr, *dout = nullptr;
  for (void** p : {&da, &db, &dout}) CHECK(aclrtMalloc(p, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(da, n * sizeof(float), a.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(db, n * sizeof(float), b.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  aclTensor* ta = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, da);
  aclTensor* tb = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, db);
  aclTensor* tout = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dout);
  float two = 2.0f;
  aclScalar* alpha = aclCreateScalar(&two, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  CHECK(aclnnAddGetWorkspaceSize(ta, tb, alpha, tout, &ws, &ex));
  CHECK(aclnnAdd(nullptr, 0, ex, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(out.data(), n * sizeof(float), dout, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
  bool ok = true;
  for (float v : out) ok = ok && v == 7.0f;
  std::printf("add_app: out[0] = %.1f: %s\n", out[0], ok ? "PASS" : "FAIL");
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tout);
  aclDestroyScalar(alpha);
  for (void* p : {da, db, dout}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return ok ? 0 : 1;
}
