// pacl_round_trip ITERS N: ITERS synchronous Add round trips (phase 1 + phase 2 +
// aclrtSynchronizeStream) on float32[N]; prints the time per call. Small enough to run under
// valgrind --tool=callgrind, which gives deterministic instruction counts (docs/checker.md uses
// it for the checker's overhead: the difference between two ITERS counts, divided). Also prints
// the resident set size after the first 1% of the calls and after all of them: pacl's own memory
// must stay flat however many ops run (docs/performance.md quotes it for 10 M calls).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {
// Resident set size in KiB (Linux /proc/self/statm), 0 where unavailable.
long rss_kib() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  if (!(f >> pages >> resident)) return 0;
  return resident * 4;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ITERS N\n", argv[0]);
    return 2;
  }
  const int iters = std::atoi(argv[1]);
  const int64_t n = std::atoll(argv[2]);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  const int64_t shape[1] = {n}, strides[1] = {1};
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  void *a = nullptr, *b = nullptr, *o = nullptr;
  for (void** p : {&a, &b, &o}) aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(a, bytes, 0, bytes);
  aclrtMemset(b, bytes, 0, bytes);
  aclTensor* ta = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, a);
  aclTensor* tb = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, b);
  aclTensor* to = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, o);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  long rss_warm = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    if (i == iters / 100) rss_warm = rss_kib();
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    if (aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &e) != ACL_SUCCESS || aclnnAdd(nullptr, 0, e, s) != ACL_SUCCESS ||
        aclrtSynchronizeStream(s) != ACL_SUCCESS) {
      std::fprintf(stderr, "Add failed: %s\n", aclGetRecentErrMsg());
      return 1;
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  std::printf("%.3f us per round trip (Add of %lld float32)\n",
              std::chrono::duration<double, std::micro>(t1 - t0).count() / iters, static_cast<long long>(n));
  std::printf("RSS %ld KiB after %d calls, %ld KiB after %d calls\n", rss_warm, iters / 100, rss_kib(), iters);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(to);
  aclDestroyScalar(alpha);
  for (void* p : {a, b, o}) aclrtFree(p);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
