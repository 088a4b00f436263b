// The contract checker's catalogue: each classic misuse of the two-phase model as a small program,
// and the same program written correctly. Run with PACL_CHECK=2 PACL_CHECK_QUIET=1 (set by
// CMake); each test clears the reports, runs its program and compares the classes reported
// (pacl/check.h). The always-on checks (null or short workspace, host pointers) answer with a
// status code and a message instead; their cases assert those.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "op_test_util.h"
#include "pacl/check.h"

namespace {

using namespace optest;

// The checker is configured at aclInit (the suite's environment calls it after main starts).
const bool kCheckerOn = (setenv("PACL_CHECK", "2", 1), setenv("PACL_CHECK_QUIET", "1", 1), true);

constexpr int64_t kN = 64;

// Device memory, an aclTensor over it (float32[kN] unless told), and a scalar 1.0.
struct Buf {
  explicit Buf(aclDataType t = ACL_FLOAT, bool init = true) : dtype(t) {
    EXPECT_EQ(aclrtMalloc(&dev, bytes(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t shape[1] = {kN}, strides[1] = {1};
    tensor = aclCreateTensor(shape, 1, t, strides, 0, ACL_FORMAT_ND, shape, 1, dev);
    if (init) {
      EXPECT_EQ(aclrtMemset(dev, bytes(), 0, bytes()), ACL_SUCCESS);
    }
  }
  ~Buf() {
    if (tensor) aclDestroyTensor(tensor);
    if (dev) aclrtFree(dev);
  }
  size_t bytes() const { return static_cast<size_t>(kN) * dtype_size(dtype); }
  aclDataType dtype;
  void* dev = nullptr;
  aclTensor* tensor = nullptr;
};

struct One {
  One() {
    float v = 1.0f;
    s = aclCreateScalar(&v, ACL_FLOAT);
  }
  ~One() { aclDestroyScalar(s); }
  aclScalar* s;
};

aclOpExecutor* plan_add(const Buf& a, const Buf& b, const Buf& out, uint64_t* ws = nullptr) {
  One alpha;
  uint64_t w = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.tensor, b.tensor, alpha.s, out.tensor, &w, &e), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  if (ws) *ws = w;
  return e;
}

aclrtStream new_stream() {
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  return s;
}

// The classes reported while running `program`.
std::vector<std::string> reports_of(const std::function<void()>& program) {
  paclCheckClearReports();
  program();
  std::vector<std::string> kinds;
  for (int i = 0; i < paclCheckReportCount(); ++i) kinds.push_back(paclCheckReportKind(i));
  return kinds;
}

std::string all_reports() {
  std::string r;
  for (int i = 0; i < paclCheckReportCount(); ++i) r += std::string(paclCheckReportText(i)) + "\n";
  return r;
}

void expect_only(const std::vector<std::string>& got, const std::string& kind) {
  ASSERT_FALSE(got.empty()) << "expected a " << kind << " report, got none";
  for (const auto& k : got) EXPECT_EQ(k, kind) << all_reports();
}
void expect_clean(const std::vector<std::string>& got) { EXPECT_TRUE(got.empty()) << all_reports(); }

TEST(Checker, IsOnAtLevel2) { ASSERT_EQ(paclCheckLevel(), 2) << "run this suite with PACL_CHECK=2"; }

// ---- class 1: use after free in stream order ----------------------------------------------------

TEST(Checker, FreeBeforeSynchronize) {
  Buf a, b;
  expect_only(reports_of([&] {
                Buf out;
                aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
                aclDestroyTensor(out.tensor);
                out.tensor = nullptr;
                aclrtFree(out.dev);  // the Add may not have run
                out.dev = nullptr;
                aclrtSynchronizeStream(stream());
              }),
              "use-after-free");
  expect_clean(reports_of([&] {
    Buf out;
    aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
    aclrtSynchronizeStream(stream());
  }));
}

TEST(Checker, WorkspaceFreedBeforeSynchronize) {
  Buf a(ACL_FLOAT16), b, out;  // mixed dtypes: the Add books conversion buffers
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      uint64_t ws_size = 0;
      aclOpExecutor* e = plan_add(a, b, out, &ws_size);
      ASSERT_GT(ws_size, 0u);
      void* ws = nullptr;
      aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST);
      aclnnAdd(ws, ws_size, e, stream());
      if (correct) aclrtSynchronizeStream(stream());
      aclrtFree(ws);
      aclrtSynchronizeStream(stream());
    });
    if (correct) expect_clean(got);
    else expect_only(got, "use-after-free");
  }
}

TEST(Checker, StreamDestroyedWithQueuedWork) {
  Buf a, b, out;
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      aclrtStream s = new_stream();
      aclnnAdd(nullptr, 0, plan_add(a, b, out), s);
      if (correct) aclrtSynchronizeStream(s);
      aclrtDestroyStream(s);
    });
    if (correct) expect_clean(got);
    else expect_only(got, "use-after-free");
  }
}

TEST(Checker, RepeatableExecutorDestroyedWhileQueued) {
  Buf a, b, out;
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      aclOpExecutor* e = plan_add(a, b, out);
      aclSetAclOpExecutorRepeatable(e);
      aclnnAdd(nullptr, 0, e, stream());
      if (correct) aclrtSynchronizeStream(stream());
      aclDestroyAclOpExecutor(e);
      aclrtSynchronizeStream(stream());
    });
    if (correct) expect_clean(got);
    else expect_only(got, "use-after-free");
  }
}

TEST(Checker, DeviceResetWithQueuedWorkAndLeaks) {
  // Device 1, so that the suite's device 0 stays up.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* leaked = nullptr;
  auto got = reports_of([&] {
    aclrtStream s = new_stream();
    void* p = nullptr;
    aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemsetAsync(p, 256, 0, 256, s);
    leaked = p;
    aclrtResetDevice(1);  // queued memset, and p and s never released
  });
  bool uaf = false, leak = false;
  for (const auto& k : got) {
    uaf |= k == "use-after-free";
    leak |= k == "leak";
  }
  EXPECT_TRUE(uaf) << all_reports();
  EXPECT_TRUE(leak) << all_reports();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  (void)leaked;
}

// ---- class 2: results read before synchronization ------------------------------------------------

TEST(Checker, ReadBeforeSynchronize) {
  Buf a, b, out;
  std::vector<float> host(kN);
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
      if (correct) aclrtSynchronizeStream(stream());
      aclrtMemcpy(host.data(), out.bytes(), out.dev, out.bytes(), ACL_MEMCPY_DEVICE_TO_HOST);
      aclrtSynchronizeStream(stream());
    });
    if (correct) expect_clean(got);
    else expect_only(got, "read-before-sync");
  }
}

TEST(Checker, HostOverwritesAnInputOfQueuedWork) {
  Buf a, b, out;
  std::vector<float> host(kN, 2.0f);
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
      if (correct) aclrtSynchronizeStream(stream());
      aclrtMemcpy(a.dev, a.bytes(), host.data(), a.bytes(), ACL_MEMCPY_HOST_TO_DEVICE);
      aclrtSynchronizeStream(stream());
    });
    if (correct) expect_clean(got);
    else expect_only(got, "write-before-sync");
  }
}

TEST(Checker, EventSynchronizeCountsAsSynchronization) {
  Buf a, b, out;
  std::vector<float> host(kN);
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  expect_clean(reports_of([&] {
    aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
    aclrtRecordEvent(ev, stream());
    aclrtSynchronizeEvent(ev);
    aclrtMemcpy(host.data(), out.bytes(), out.dev, out.bytes(), ACL_MEMCPY_DEVICE_TO_HOST);
  }));
  aclrtDestroyEvent(ev);
}

// ---- class 3: cross-stream hazards ---------------------------------------------------------------

TEST(Checker, CrossStreamRaceWithoutEvent) {
  Buf a, b, mid, out;
  aclrtStream s2 = new_stream();
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      aclnnAdd(nullptr, 0, plan_add(a, b, mid), stream());  // writes mid on stream 1
      if (correct) {
        aclrtRecordEvent(ev, stream());
        aclrtStreamWaitEvent(s2, ev);
      }
      aclnnAdd(nullptr, 0, plan_add(mid, b, out), s2);  // reads mid on stream 2
      aclrtSynchronizeStream(stream());
      aclrtSynchronizeStream(s2);
    });
    if (correct) expect_clean(got);
    else expect_only(got, "cross-stream-race");
  }
  aclrtDestroyEvent(ev);
  aclrtDestroyStream(s2);
}

TEST(Checker, HostSynchronizeOrdersLaterStreams) {
  Buf a, b, mid, out;
  aclrtStream s2 = new_stream();
  expect_clean(reports_of([&] {
    aclnnAdd(nullptr, 0, plan_add(a, b, mid), stream());
    aclrtSynchronizeStream(stream());  // everything queued later on any stream is ordered after it
    aclnnAdd(nullptr, 0, plan_add(mid, b, out), s2);
    aclrtSynchronizeStream(s2);
  }));
  aclrtDestroyStream(s2);
}

// ---- class 4: executor misuse --------------------------------------------------------------------

TEST(Checker, ExecutorReusedAfterShapeChange) {
  Buf a, b, out;
  aclOpExecutor* e = plan_add(a, b, out);
  aclSetAclOpExecutorRepeatable(e);
  auto got = reports_of([&] {
    const int64_t shape[2] = {8, 8}, strides[2] = {8, 1}, storage[1] = {kN};
    ASSERT_EQ(aclInitTensor(a.tensor, shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, a.dev), ACL_SUCCESS);
    EXPECT_EQ(aclnnAdd(nullptr, 0, e, stream()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("changed since phase 1"), std::string::npos);
  });
  expect_only(got, "executor-misuse");
  aclDestroyAclOpExecutor(e);
}

TEST(Checker, RepeatableExecutorOnTwoStreams) {
  Buf a, b, out;
  aclrtStream s2 = new_stream();
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      aclOpExecutor* e = plan_add(a, b, out);
      aclSetAclOpExecutorRepeatable(e);
      aclnnAdd(nullptr, 0, e, stream());
      if (correct) aclrtSynchronizeStream(stream());
      aclnnAdd(nullptr, 0, e, s2);
      aclrtSynchronizeStream(stream());
      aclrtSynchronizeStream(s2);
      aclDestroyAclOpExecutor(e);
    });
    bool misuse = false;
    for (const auto& k : got) misuse |= k == "executor-misuse";
    if (correct) expect_clean(got);
    else EXPECT_TRUE(misuse) << all_reports();
  }
  aclrtDestroyStream(s2);
}

TEST(Checker, TensorDestroyedBeforeItsRepeatableExecutor) {
  Buf a, b;
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      Buf out;
      aclOpExecutor* e = plan_add(a, b, out);
      aclSetAclOpExecutorRepeatable(e);
      aclnnAdd(nullptr, 0, e, stream());
      aclrtSynchronizeStream(stream());
      if (correct) aclDestroyAclOpExecutor(e);
      aclDestroyTensor(out.tensor);  // wrong order when the executor is still alive
      out.tensor = nullptr;
      if (!correct) aclDestroyAclOpExecutor(e);
    });
    if (correct) expect_clean(got);
    else expect_only(got, "executor-misuse");
  }
}

// ---- the always-on checks: a status code and a message ------------------------------------------

TEST(Checker, NullOrGuessedWorkspaceAndHostPointers) {
  Buf a(ACL_FLOAT16), b, out;
  uint64_t ws_size = 0;
  aclOpExecutor* e = plan_add(a, b, out, &ws_size);
  ASSERT_GT(ws_size, 0u);
  EXPECT_EQ(aclnnAdd(nullptr, ws_size, e, stream()), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("workspace is null"), std::string::npos);
  e = plan_add(a, b, out, &ws_size);
  void* small = nullptr;
  aclrtMalloc(&small, 32, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_EQ(aclnnAdd(small, 32, e, stream()), ACLNN_ERR_PARAM_INVALID);  // a guessed workspace
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("smaller than"), std::string::npos);
  aclrtFree(small);

  std::vector<float> host_mem(kN);
  const int64_t shape[1] = {kN}, strides[1] = {1};
  aclTensor* host_tensor = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, host_mem.data());
  Buf f1, f2;
  e = plan_add(f1, f2, out);
  aclDestroyAclOpExecutor(e);
  One alpha;
  uint64_t w = 0;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(host_tensor, f2.tensor, alpha.s, out.tensor, &w, &e), ACL_SUCCESS);
  EXPECT_EQ(aclnnAdd(nullptr, 0, e, stream()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not device memory"), std::string::npos);
  aclDestroyTensor(host_tensor);
}

// ---- class 5: overruns and uninitialized reads (level 2) -----------------------------------------

TEST(Checker, WritePastTheEndOfAnAllocation) {
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      void* p = nullptr;
      aclrtMalloc(&p, 36, ACL_MEM_MALLOC_HUGE_FIRST);
      std::vector<char> src(40, 7);
      // 40 bytes fit the 32-byte pad CANN adds (the always-on range check allows it) but overrun
      // the 36 bytes asked for.
      aclrtMemcpyAsync(p, 64, src.data(), correct ? 36 : 40, ACL_MEMCPY_HOST_TO_DEVICE, stream());
      aclrtSynchronizeStream(stream());
      aclrtFree(p);
    });
    if (correct) expect_clean(got);
    else expect_only(got, "overrun");
  }
}

TEST(Checker, OpReadsUninitializedMemory) {
  Buf b, out;
  for (bool correct : {false, true}) {
    auto got = reports_of([&] {
      Buf a(ACL_FLOAT, /*init=*/correct);
      aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
      aclrtSynchronizeStream(stream());
    });
    if (correct) expect_clean(got);
    else expect_only(got, "uninitialized-read");
  }
}

TEST(Checker, OutputsOfOpsCountAsInitialized) {
  Buf a, b;
  expect_clean(reports_of([&] {
    Buf mid(ACL_FLOAT, /*init=*/false), out(ACL_FLOAT, false);
    aclnnAdd(nullptr, 0, plan_add(a, b, mid), stream());  // writes mid
    aclnnAdd(nullptr, 0, plan_add(mid, b, out), stream());
    std::vector<float> host(kN);
    aclrtSynchronizeStream(stream());
    aclrtMemcpy(host.data(), out.bytes(), out.dev, out.bytes(), ACL_MEMCPY_DEVICE_TO_HOST);
  }));
}

TEST(Checker, CallbacksRunInStreamOrder) {
  Buf a, b, out;
  struct Ctx {
    void* dev;
    size_t bytes;
  } ctx{out.dev, out.bytes()};
  expect_clean(reports_of([&] {
    aclnnAdd(nullptr, 0, plan_add(a, b, out), stream());
    aclrtLaunchCallback(
        [](void* p) {
          auto* c = static_cast<Ctx*>(p);
          std::vector<char> host(c->bytes);
          aclrtMemcpy(host.data(), c->bytes, c->dev, c->bytes, ACL_MEMCPY_DEVICE_TO_HOST);  // after the Add
        },
        &ctx, ACL_CALLBACK_BLOCK, stream());
    aclrtSynchronizeStream(stream());
  }));
}

}  // namespace
