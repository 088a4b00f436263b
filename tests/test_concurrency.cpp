// Concurrency of the execution machinery through the public API: several host threads, each with
// its own stream, run ops large enough to be split over the intra-op thread pool, at the same time
// and interleaved with small ops (which run on the calling thread). Results must be exact and the
// run clean under ThreadSanitizer (scripts/test.sh runs this suite there).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

class Env : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  }
  void TearDown() override { aclFinalize(); }
};
const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new Env);

// A float32 vector on the device with its aclTensor.
struct Vec {
  explicit Vec(int64_t elems) : n(elems) {
    EXPECT_EQ(aclrtMalloc(&data, bytes(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t stride = 1;
    t = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, data);
  }
  ~Vec() {
    aclDestroyTensor(t);
    aclrtFree(data);
  }
  size_t bytes() const { return static_cast<size_t>(n) * sizeof(float); }
  void upload(const std::vector<float>& v) {
    ASSERT_EQ(aclrtMemcpy(data, bytes(), v.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  std::vector<float> download() const {
    std::vector<float> v(static_cast<size_t>(n));
    EXPECT_EQ(aclrtMemcpy(v.data(), bytes(), data, bytes(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return v;
  }
  int64_t n;
  void* data = nullptr;
  aclTensor* t = nullptr;
};

// out = a + b on `stream`, no synchronize.
std::string enqueue_add(const Vec& a, const Vec& b, const Vec& out, aclrtStream stream) {
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  std::string err;
  if (aclnnAddGetWorkspaceSize(a.t, b.t, alpha, out.t, &ws, &e) != ACL_SUCCESS || ws != 0 ||
      aclnnAdd(nullptr, 0, e, stream) != ACL_SUCCESS)
    err = aclGetRecentErrMsg();
  aclDestroyScalar(alpha);
  return err;
}

// One host thread's work: `iters` rounds of a large Add (split over the pool) and a small Add on
// its own stream, enqueued back to back, then synchronized and checked element by element.
void worker(int id, int iters, std::atomic<int>& failures, std::string& first_error) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) {
    ++failures;
    return;
  }
  aclrtStream s = nullptr;
  if (aclrtCreateStream(&s) != ACL_SUCCESS) {
    ++failures;
    return;
  }
  {
    const int64_t large = int64_t{1} << 18, small = 1000;
    Vec a(large), b(large), out(large), sa(small), sb(small), sout(small);
    std::vector<float> av(static_cast<size_t>(large)), bv(av.size());
    for (size_t i = 0; i < av.size(); ++i) {
      av[i] = static_cast<float>(i % 1024) + static_cast<float>(id);
      bv[i] = static_cast<float>(i % 7);
    }
    a.upload(av);
    b.upload(bv);
    sa.upload(std::vector<float>(av.begin(), av.begin() + small));
    sb.upload(std::vector<float>(bv.begin(), bv.begin() + small));
    for (int it = 0; it < iters && failures == 0; ++it) {
      std::string err = enqueue_add(a, b, out, s);
      if (err.empty()) err = enqueue_add(sa, sb, sout, s);
      if (err.empty() && aclrtSynchronizeStream(s) != ACL_SUCCESS) err = aclGetRecentErrMsg();
      if (err.empty()) {
        const std::vector<float> r = out.download(), rs = sout.download();
        for (size_t i = 0; i < r.size() && err.empty(); ++i)
          if (r[i] != av[i] + bv[i])
            err = "thread " + std::to_string(id) + " large Add element " + std::to_string(i) + ": " +
                  std::to_string(r[i]) + " != " + std::to_string(av[i] + bv[i]);
        for (size_t i = 0; i < rs.size() && err.empty(); ++i)
          if (rs[i] != av[i] + bv[i]) err = "thread " + std::to_string(id) + " small Add element " + std::to_string(i);
      }
      if (!err.empty()) {
        if (failures++ == 0) first_error = err;
      }
    }
  }
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
}

TEST(Concurrency, LargeAndSmallOpsFromFourHostThreadsOnFourStreams) {
  constexpr int kThreads = 4, kIters = 20;
  std::atomic<int> failures{0};
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) threads.emplace_back(worker, i, kIters, std::ref(failures), std::ref(errors[i]));
  for (auto& t : threads) t.join();
  std::string all;
  for (const auto& e : errors) all += e.empty() ? "" : e + "\n";
  EXPECT_EQ(failures.load(), 0) << all;
}

// Many back-to-back parallel regions on one stream (no synchronize between them): each region must
// see the previous one's output, whatever state the pool's workers are in (polling or parked).
TEST(Concurrency, ChainedParallelOpsOnOneStream) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  {
    const int64_t n = int64_t{1} << 18;
    Vec x(n), one(n);
    x.upload(std::vector<float>(static_cast<size_t>(n), 0.0f));
    one.upload(std::vector<float>(static_cast<size_t>(n), 1.0f));
    constexpr int kSteps = 200;
    for (int i = 0; i < kSteps; ++i) {
      ASSERT_EQ(enqueue_add(x, one, x, s), "") << "step " << i;
      if (i % 50 == 49) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let workers park
    }
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<float> r = x.download();
    for (size_t i = 0; i < r.size(); ++i) ASSERT_EQ(r[i], static_cast<float>(kSteps)) << "element " << i;
  }
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

}  // namespace
