// Minimal wrong programs, one per class of the contract checker (docs/checker.md shows each with
// its report). Run: PACL_CHECK=2 ./checker_misuse <case>   (cases: see kCases below)
// Each case is a complete, plain CANN program fragment with exactly one mistake.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

constexpr int64_t kN = 16;
aclrtStream g_stream = nullptr;

struct Vec {  // float32[kN] on the device, zero-filled
  Vec() {
    aclrtMalloc(&dev, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(dev, kN * sizeof(float), 0, kN * sizeof(float));
    const int64_t shape[1] = {kN}, strides[1] = {1};
    t = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dev);
  }
  void release() {
    aclDestroyTensor(t);
    aclrtFree(dev);
  }
  void* dev = nullptr;
  aclTensor* t = nullptr;
};

aclOpExecutor* plan_add(Vec& a, Vec& b, Vec& out) {
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  aclnnAddGetWorkspaceSize(a.t, b.t, alpha, out.t, &ws, &e);
  aclDestroyScalar(alpha);
  return e;
}

void free_before_sync() {
  Vec a, b, out;
  aclnnAdd(nullptr, 0, plan_add(a, b, out), g_stream);
  out.release();  // wrong: the Add may still be running
  aclrtSynchronizeStream(g_stream);
  a.release();
  b.release();
}

void read_before_sync() {
  Vec a, b, out;
  aclnnAdd(nullptr, 0, plan_add(a, b, out), g_stream);
  std::vector<float> host(kN);
  aclrtMemcpy(host.data(), sizeof(float) * kN, out.dev, sizeof(float) * kN, ACL_MEMCPY_DEVICE_TO_HOST);  // wrong
  aclrtSynchronizeStream(g_stream);
  a.release();
  b.release();
  out.release();
}

void cross_stream_race() {
  Vec a, b, mid, out;
  aclrtStream other = nullptr;
  aclrtCreateStream(&other);
  aclnnAdd(nullptr, 0, plan_add(a, b, mid), g_stream);
  aclnnAdd(nullptr, 0, plan_add(mid, b, out), other);  // wrong: nothing orders it after the first Add
  aclrtSynchronizeStream(g_stream);
  aclrtSynchronizeStream(other);
  aclrtDestroyStream(other);
  a.release();
  b.release();
  mid.release();
  out.release();
}

void stale_executor() {
  Vec a, b, out;
  aclOpExecutor* e = plan_add(a, b, out);
  aclSetAclOpExecutorRepeatable(e);
  const int64_t shape[2] = {4, 4}, strides[2] = {4, 1}, storage[1] = {kN};
  aclInitTensor(a.t, shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, a.dev);
  aclnnAdd(nullptr, 0, e, g_stream);  // wrong: planned for float32[16]
  aclDestroyAclOpExecutor(e);
  a.release();
  b.release();
  out.release();
}

void wrong_release_order() {
  Vec a, b, out;
  aclOpExecutor* e = plan_add(a, b, out);
  aclSetAclOpExecutorRepeatable(e);
  aclnnAdd(nullptr, 0, e, g_stream);
  aclrtSynchronizeStream(g_stream);
  out.release();               // wrong: the repeatable executor still uses out
  aclDestroyAclOpExecutor(e);  // should come first
  a.release();
  b.release();
}

void overrun() {
  void* p = nullptr;
  aclrtMalloc(&p, 36, ACL_MEM_MALLOC_HUGE_FIRST);
  char src[40] = {};
  aclrtMemcpyAsync(p, 64, src, 40, ACL_MEMCPY_HOST_TO_DEVICE, g_stream);  // wrong: 40 bytes into 36
  aclrtSynchronizeStream(g_stream);
  aclrtFree(p);
}

void uninitialized_read() {
  Vec b, out;
  void* dev = nullptr;
  aclrtMalloc(&dev, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);  // never written
  Vec a;
  aclDestroyTensor(a.t);
  aclrtFree(a.dev);
  const int64_t shape[1] = {kN}, strides[1] = {1};
  a.dev = dev;
  a.t = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dev);
  aclnnAdd(nullptr, 0, plan_add(a, b, out), g_stream);  // wrong: a holds garbage
  aclrtSynchronizeStream(g_stream);
  a.release();
  b.release();
  out.release();
}

void leak() {
  void* p = nullptr;
  aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST);  // wrong: never freed
}

struct Case {
  const char* name;
  void (*run)();
};
const Case kCases[] = {{"free-before-sync", free_before_sync}, {"read-before-sync", read_before_sync},
                       {"cross-stream-race", cross_stream_race}, {"stale-executor", stale_executor},
                       {"wrong-release-order", wrong_release_order}, {"overrun", overrun},
                       {"uninitialized-read", uninitialized_read}, {"leak", leak}};

}  // namespace

int main(int argc, char** argv) {
  const Case* c = nullptr;
  for (const Case& k : kCases)
    if (argc > 1 && std::strcmp(argv[1], k.name) == 0) c = &k;
  if (!c) {
    std::fprintf(stderr, "usage: %s <case>; cases:", argv[0]);
    for (const Case& k : kCases) std::fprintf(stderr, " %s", k.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtCreateStream(&g_stream);
  c->run();
  aclrtDestroyStream(g_stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
