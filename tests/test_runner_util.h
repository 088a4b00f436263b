// Helpers shared by the op runner's tests (public CANN API + the runner only): device buffers,
// tensors with full control of every descriptor field, a stream gate that holds a stream's work
// back, and RunnerTestFill, a test op with a chosen workspace size.
#pragma once

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "op_test_util.h"
#include "pacl/runner.h"

namespace rt {

// Device memory, freed on destruction.
struct DeviceBuffer {
  explicit DeviceBuffer(size_t n_bytes) : bytes(n_bytes) {
    EXPECT_EQ(aclrtMalloc(&ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << aclGetRecentErrMsg();
    if (ptr) {  // never read uninitialized
      EXPECT_EQ(aclrtMemset(ptr, bytes, 0, bytes), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
  }
  ~DeviceBuffer() {
    if (ptr) aclrtFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void Fill(const std::vector<float>& v) {
    ASSERT_LE(v.size() * 4, bytes);
    ASSERT_EQ(aclrtMemcpy(ptr, bytes, v.data(), v.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  std::vector<float> Floats(size_t n) const {
    std::vector<float> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, ptr, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << aclGetRecentErrMsg();
    return v;
  }
  void* ptr = nullptr;
  size_t bytes = 0;
};

// An aclTensor over `data` with every field given; destroyed on destruction.
struct Tensor {
  Tensor(std::vector<int64_t> view, aclDataType dtype, void* data, std::vector<int64_t> strides = {}, int64_t offset = 0,
         aclFormat format = ACL_FORMAT_ND, std::vector<int64_t> storage = {}) {
    if (strides.empty()) strides = optest::contiguous_strides(view);
    if (storage.empty()) storage = {offset + optest::numel(view)};
    t = aclCreateTensor(view.data(), view.size(), dtype, strides.data(), offset, format, storage.data(), storage.size(),
                        data);
    EXPECT_NE(t, nullptr) << aclGetRecentErrMsg();
  }
  ~Tensor() {
    if (t) aclDestroyTensor(t);
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  operator aclTensor*() const { return t; }  // NOLINT
  aclTensor* t = nullptr;
};

// A float32 contiguous tensor with its own device buffer.
struct Floats {
  explicit Floats(std::vector<int64_t> shape, float first = 0, float step = 1)
      : n(static_cast<size_t>(optest::numel(shape))), buf(std::max<size_t>(n, 1) * 4), tensor(shape, ACL_FLOAT, buf.ptr) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = first + step * static_cast<float>(i);
    if (n) buf.Fill(v);
  }
  std::vector<float> Read() const { return buf.Floats(n); }
  aclTensor* get() const { return tensor.t; }
  operator aclTensor*() const { return tensor.t; }  // NOLINT
  size_t n;
  DeviceBuffer buf;
  Tensor tensor;
};

// Holds a stream's later work back until Open(): a host callback on the stream waits for it.
class StreamGate {
 public:
  explicit StreamGate(aclrtStream s) {
    EXPECT_EQ(aclrtLaunchCallback(&StreamGate::Wait, this, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  ~StreamGate() {
    Open();
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return passed_; });  // the callback must be done with *this
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  static void Wait(void* self) {
    auto* g = static_cast<StreamGate*>(self);
    std::unique_lock<std::mutex> lock(g->mu_);
    g->cv_.wait(lock, [g] { return g->open_; });
    g->passed_ = true;
    g->cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  bool passed_ = false;
};

inline size_t DeviceBytesInUse() {
  size_t free_bytes = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  return total - free_bytes;
}

// Tears the runner down before the ACL environment of op_test_util.h goes (environments are torn
// down in reverse registration order) and resets its configuration between tests.
class RunnerEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { pacl::ReleaseResources(); }
};
inline ::testing::Environment* const kRunnerEnvironment = ::testing::AddGlobalTestEnvironment(new RunnerEnvironment);

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pacl::SetCacheConfig(pacl::CacheConfig{});
    pacl::ClearCache();
    pacl::ResetCacheStats();
    pacl::SetDefaultWorkspaceStrategy(pacl::WorkspaceStrategy::kPerStream);
    stream = optest::stream();
  }
  void TearDown() override {
    pacl::Synchronize(stream);
    pacl::SetCacheConfig(pacl::CacheConfig{});
    pacl::SetWorkspaceAlignment(512);
  }
  aclrtStream stream = nullptr;
};

// ---- RunnerTestFill: fills `out` with `value` and asks for exactly `workspaceBytes` of workspace.
// Phase 2 records the workspace it got and writes all of it (pacl checks that the range is live
// device memory). `xs` is only counted.

struct FillProbe {
  std::mutex mu;
  void* last_workspace = nullptr;
  uint64_t last_workspace_size = 0;
  uint64_t last_list_size = 0;
  int phase1_calls = 0;
  int phase2_calls = 0;
  int64_t jitter = 0;  // added to the workspace size once per phase 1 (parity-mode tests)
};
inline FillProbe& Probe() {
  static FillProbe p;
  return p;
}

}  // namespace rt

// One test source per binary includes this header, so these are defined once per binary.
extern "C" __attribute__((visibility("default"))) aclnnStatus aclnnRunnerTestFillGetWorkspaceSize(
    const aclTensorList* xs, const aclScalar* value, int64_t workspaceBytes, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  rt::FillProbe& p = rt::Probe();
  uint64_t n = 0;
  if (xs && aclGetTensorListSize(xs, &n) != 0) return 161002;
  uint64_t inner = 0;
  const aclnnStatus st = aclnnInplaceFillScalarGetWorkspaceSize(out, value, &inner, executor);
  if (st != 0) return st;
  std::lock_guard<std::mutex> lock(p.mu);
  ++p.phase1_calls;
  p.last_list_size = n;
  *workspaceSize = static_cast<uint64_t>(workspaceBytes) + static_cast<uint64_t>(p.jitter * p.phase1_calls);
  return 0;
}

extern "C" __attribute__((visibility("default"))) aclnnStatus aclnnRunnerTestFill(void* workspace,
                                                                                         uint64_t workspaceSize,
                                                                                         aclOpExecutor* executor,
                                                                                         aclrtStream stream) {
  rt::FillProbe& p = rt::Probe();
  {
    std::lock_guard<std::mutex> lock(p.mu);
    ++p.phase2_calls;
    p.last_workspace = workspace;
    p.last_workspace_size = workspaceSize;
  }
  if (workspaceSize) {
    const aclError e = aclrtMemsetAsync(workspace, workspaceSize, 0x5A, workspaceSize, stream);
    if (e != ACL_SUCCESS) return e;
  }
  return aclnnInplaceFillScalar(nullptr, 0, executor, stream);
}

namespace rt {

inline void RegisterFillOp() {
  pacl::RegisterOp("RunnerTestFill",
                   "const aclTensorList* xs, const aclScalar* value, int64_t workspaceBytes, aclTensor* out, "
                   "uint64_t* workspaceSize, aclOpExecutor** executor");
}

}  // namespace rt
