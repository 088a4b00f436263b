#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "aclnnop/aclnn_add.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/Parallel.h>
#endif

namespace pacl::bench {

void check(aclError e, const char* what) {
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "%s failed (%d): %s\n", what, e, aclGetRecentErrMsg());
    std::exit(1);
  }
}

namespace {

size_t dtype_bytes(aclDataType t) {
  switch (t) {
    case ACL_FLOAT: case ACL_INT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: return 2;
    case ACL_DOUBLE: case ACL_INT64: return 8;
    default: return 1;
  }
}

uint16_t to_half(float f) { return aclFloatToFloat16(f); }
uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// Times fn over enough calls to take ~10 ms; returns seconds per call.
double quick_time(const std::function<void()>& fn) {
  using Clock = std::chrono::steady_clock;
  fn();
  int64_t calls = 1;
  for (;;) {
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < calls; ++i) fn();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s > 0.01 || calls > (1 << 22)) return s / static_cast<double>(calls);
    calls *= 4;
  }
}

// The faster of the one-thread and the env.threads-thread version of a probe.
std::function<void()> best_of(const Environment& env, const std::function<void(int)>& kernel) {
  std::function<void()> one = [kernel] { kernel(1); };
  if (env.threads <= 1) return one;
  const int t = env.threads;
  std::function<void()> many = [kernel, t] { kernel(t); };
  return quick_time(one) <= quick_time(many) ? one : many;
}

struct Buffers {
  explicit Buffers(size_t n) : a(n, 0.0f), b(n, 1.0f), c(n, 2.0f) {}
  std::vector<float> a, b, c;
};

}  // namespace

Environment setup() {
  check(aclInit(nullptr), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  Environment env;
  check(aclrtCreateStream(&env.stream), "aclrtCreateStream");
  const char* t = std::getenv("PACL_NUM_THREADS");
  env.threads = t ? std::max(1, std::atoi(t)) : omp_get_num_procs();
#ifdef PACL_BENCH_TORCH
  env.torch = true;
  at::set_num_threads(env.threads);
#endif
  return env;
}

void teardown() {
  aclrtResetDevice(0);
  aclFinalize();
}

std::vector<GroupMaker>& case_groups() {
  static std::vector<GroupMaker> g;
  return g;
}

DeviceTensor::DeviceTensor(aclDataType dtype, std::vector<int64_t> shape, double lo, double hi, uint64_t seed)
    : dtype_(dtype), shape_(std::move(shape)) {
  const size_t n = static_cast<size_t>(numel()), es = dtype_bytes(dtype_);
  std::vector<unsigned char> host(n * es);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (size_t i = 0; i < n; ++i) {
    const double v = u(rng);
    unsigned char* p = host.data() + i * es;
    switch (dtype_) {
      case ACL_FLOAT: { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
      case ACL_DOUBLE: std::memcpy(p, &v, 8); break;
      case ACL_FLOAT16: { const uint16_t h = to_half(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
      case ACL_BF16: { const uint16_t h = to_bf16(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
      case ACL_INT32: { const int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
      case ACL_INT64: { const int64_t x = static_cast<int64_t>(v); std::memcpy(p, &x, 8); break; }
      case ACL_BOOL: *p = v > 0.5 * (lo + hi); break;
      default: *p = static_cast<unsigned char>(static_cast<int>(v)); break;
    }
  }
  const size_t bytes = std::max<size_t>(1, host.size());
  check(aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  if (!host.empty()) check(aclrtMemcpy(data_, bytes, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  std::vector<int64_t> strides(shape_.size(), 1);
  for (size_t d = shape_.size(); d-- > 1;) strides[d - 1] = strides[d] * shape_[d];
  tensor_ = aclCreateTensor(shape_.data(), shape_.size(), dtype_, strides.data(), 0, ACL_FORMAT_ND, shape_.data(),
                            shape_.size(), data_);
}

DeviceTensor::~DeviceTensor() {
  aclDestroyTensor(tensor_);
  aclrtFree(data_);
}

int64_t DeviceTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}
size_t DeviceTensor::bytes() const { return static_cast<size_t>(numel()) * dtype_bytes(dtype_); }

AddOperands::AddOperands(int64_t n) : a(ACL_FLOAT, {n}), b(ACL_FLOAT, {n}, -2, 2, 2), out(ACL_FLOAT, {n}) {
  float one = 1.0f;
  alpha = aclCreateScalar(&one, ACL_FLOAT);
}

AddOperands::~AddOperands() { aclDestroyScalar(alpha); }

aclOpExecutor* AddOperands::plan() const {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  check(aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, out.get(), &ws, &e), "aclnnAddGetWorkspaceSize");
  if (ws != 0) {
    std::fprintf(stderr, "aclnnAdd of float32 asked for %llu workspace bytes\n", static_cast<unsigned long long>(ws));
    std::exit(1);
  }
  return e;
}

void AddOperands::enqueue(aclrtStream stream) const { check(aclnnAdd(nullptr, 0, plan(), stream), "aclnnAdd"); }

std::string size_name(int64_t n) {
  if (n >= (1 << 20) && n % (1 << 20) == 0) return std::to_string(n >> 20) + " Mi";
  if (n >= (1 << 10) && n % (1 << 10) == 0) return std::to_string(n >> 10) + " Ki";
  return std::to_string(n);
}

std::function<void()> op_call(Environment& env, std::string op, Phase1 p1, Phase2 p2) {
  struct Workspace {
    void* p = nullptr;
    uint64_t size = 0;
    ~Workspace() {
      if (p) aclrtFree(p);
    }
  };
  auto ws = std::make_shared<Workspace>();
  aclrtStream stream = env.stream;
  return [ws, stream, op = std::move(op), p1 = std::move(p1), p2] {
    uint64_t need = 0;
    aclOpExecutor* e = nullptr;
    if (p1(&need, &e) != ACL_SUCCESS) {
      std::fprintf(stderr, "%s phase 1 failed: %s\n", op.c_str(), aclGetRecentErrMsg());
      std::exit(1);
    }
    if (need > ws->size) {
      if (ws->p) aclrtFree(ws->p);
      check(aclrtMalloc(&ws->p, need, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(workspace)");
      ws->size = need;
    }
    if (p2(need ? ws->p : nullptr, need, e, stream) != ACL_SUCCESS) {
      std::fprintf(stderr, "%s phase 2 failed: %s\n", op.c_str(), aclGetRecentErrMsg());
      std::exit(1);
    }
    check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
  };
}

std::function<void()> triad_probe(const Environment& env, double bytes) {
  const size_t n = std::max<size_t>(1, static_cast<size_t>(bytes / 12));
  auto buf = std::make_shared<Buffers>(n);
  return best_of(env, [buf, n](int threads) {
    float* __restrict a = buf->a.data();
    const float* __restrict b = buf->b.data();
    const float* __restrict c = buf->c.data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + 3.0f * c[i];
  });
}

std::function<void()> copy_probe(const Environment& env, double bytes) {
  const size_t n = std::max<size_t>(1, static_cast<size_t>(bytes / 8));
  auto buf = std::make_shared<Buffers>(n);
  return best_of(env, [buf, n](int threads) {
    float* __restrict a = buf->a.data();
    const float* __restrict b = buf->b.data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; ++i) a[i] = b[i];
  });
}

}  // namespace pacl::bench
