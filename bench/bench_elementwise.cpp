// Elementwise bandwidth and dispatch benchmarks, each next to its same-run reference:
//   Triad/N        STREAM-style a[i] = b[i] + s*c[i] with std::threads: the memory-bandwidth limit
//   AddF32/N       aclnnAdd of two float32 vectors (phase 1 + phase 2 + synchronize)
//   AddF32Warm/N   the same with a repeatable executor (phase 2 + synchronize only)
//   Dispatch1K     phase 1 + phase 2 + synchronize of a 1024-element Add: pacl's per-op overhead
// Bytes/s counters use read+write bytes (3 x 4 bytes per element for both Triad and Add).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

struct Device {
  Device() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
  }
  aclrtStream stream = nullptr;
};
Device& device() {
  static Device d;
  return d;
}

struct Vectors {
  explicit Vectors(int64_t count) : n(count) {
    const size_t bytes = static_cast<size_t>(n) * 4;
    for (void** p : {&a, &b, &c}) aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> h(static_cast<size_t>(n), 1.5f);
    for (void* p : {a, b, c}) aclrtMemcpy(p, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    const int64_t shape[] = {n};
    ta = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, a);
    tb = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, b);
    tc = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, c);
    float one = 1.0f;
    alpha = aclCreateScalar(&one, ACL_FLOAT);
  }
  ~Vectors() {
    aclDestroyTensor(ta);
    aclDestroyTensor(tb);
    aclDestroyTensor(tc);
    aclDestroyScalar(alpha);
    for (void* p : {a, b, c}) aclrtFree(p);
  }
  int64_t n;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  aclTensor *ta = nullptr, *tb = nullptr, *tc = nullptr;
  aclScalar* alpha = nullptr;
};

void set_counters(benchmark::State& state, int64_t n) {
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 12);
}

void Triad(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), 1.0f), c(static_cast<size_t>(n), 2.0f);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (auto _ : state) {
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
      ts.emplace_back([&, t] {
        const int64_t lo = n * t / threads, hi = n * (t + 1) / threads;
        float* __restrict pa = a.data();
        const float* __restrict pb = b.data();
        const float* __restrict pc = c.data();
        for (int64_t i = lo; i < hi; ++i) pa[i] = pb[i] + 3.0f * pc[i];
      });
    for (auto& t : ts) t.join();
    benchmark::DoNotOptimize(a.data());
  }
  set_counters(state, n);
}

void AddF32(benchmark::State& state) {
  Device& d = device();
  Vectors v(state.range(0));
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnAddGetWorkspaceSize(v.ta, v.tb, v.alpha, v.tc, &ws, &e);
    aclnnAdd(nullptr, 0, e, d.stream);
    aclrtSynchronizeStream(d.stream);
  }
  set_counters(state, v.n);
}

void AddF32Warm(benchmark::State& state) {
  Device& d = device();
  Vectors v(state.range(0));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  aclnnAddGetWorkspaceSize(v.ta, v.tb, v.alpha, v.tc, &ws, &e);
  aclSetAclOpExecutorRepeatable(e);
  for (auto _ : state) {
    aclnnAdd(nullptr, 0, e, d.stream);
    aclrtSynchronizeStream(d.stream);
  }
  aclDestroyAclOpExecutor(e);
  set_counters(state, v.n);
}

void Dispatch1K(benchmark::State& state) {
  Device& d = device();
  Vectors v(1024);
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnAddGetWorkspaceSize(v.ta, v.tb, v.alpha, v.tc, &ws, &e);
    aclnnAdd(nullptr, 0, e, d.stream);
    aclrtSynchronizeStream(d.stream);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(Triad)->RangeMultiplier(16)->Range(1 << 16, 1 << 24)->UseRealTime();
BENCHMARK(AddF32)->RangeMultiplier(16)->Range(1 << 16, 1 << 24)->UseRealTime();
BENCHMARK(AddF32Warm)->RangeMultiplier(16)->Range(1 << 16, 1 << 24)->UseRealTime();
BENCHMARK(Dispatch1K)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
