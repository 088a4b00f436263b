// The executor model of the aclnn two-phase API, exercised through aclnnAdd (and aclnnMul where
// a second op is needed) on small float32 tensors: phase-1 out-parameters, consumption of
// executors by phase 2, repeatable executors and address rebinding, and everything phase 2 must
// refuse (consumed, destroyed or foreign executors; tensors changed, destroyed, or pointing at
// memory that is not a live device allocation large enough for the view).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"

namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string LastError() {
  const char* m = aclGetRecentErrMsg();
  return m ? std::string(m) : std::string("<NULL>");
}

void PoisonErrMsg() {
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_THAT(LastError(), HasSubstr("aclrtGetRunMode"));
}

// The call returns exactly `code` and sets a fresh message matching all the matchers.
#define EXPECT_NN_FAILS(call, code, ...)                                            \
  do {                                                                              \
    PoisonErrMsg();                                                                 \
    EXPECT_EQ(static_cast<int>(call), static_cast<int>(code)) << LastError();       \
    EXPECT_THAT(LastError(), AllOf(Not(HasSubstr("aclrtGetRunMode")), __VA_ARGS__)); \
  } while (0)

#define EXPECT_OK(call) EXPECT_EQ(static_cast<int>(call), 0) << LastError()
#define ASSERT_OK(call) ASSERT_EQ(static_cast<int>(call), 0) << LastError()

using Dims = std::vector<int64_t>;
constexpr int64_t kN = 6;
constexpr size_t kBytes = kN * sizeof(float);

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), 0) << LastError();
    ASSERT_EQ(aclrtSetDevice(0), 0) << LastError();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), 0) << LastError();
    EXPECT_EQ(aclFinalize(), 0) << LastError();
  }
};
const ::testing::Environment* const kEnv = ::testing::AddGlobalTestEnvironment(new AclEnvironment);

class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(aclrtCreateStream(&stream_));
    float one = 1.0f;
    alpha_ = aclCreateScalar(&one, ACL_FLOAT);
    ASSERT_NE(alpha_, nullptr);
  }
  void TearDown() override {
    EXPECT_OK(aclrtSynchronizeStream(stream_));
    for (aclTensor* t : tensors_) EXPECT_EQ(aclDestroyTensor(t), 0) << LastError();
    for (void* p : device_) EXPECT_OK(aclrtFree(p));
    EXPECT_OK(aclDestroyScalar(alpha_));
    EXPECT_OK(aclrtDestroyStream(stream_));
  }

  // Device memory holding `values` (freed at TearDown).
  void* Device(const std::vector<float>& values, size_t bytes = 0) {
    void* p = nullptr;
    if (bytes == 0) bytes = values.size() * sizeof(float);
    EXPECT_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (!values.empty()) {
      EXPECT_OK(aclrtMemcpy(p, bytes, values.data(), values.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    device_.push_back(p);
    return p;
  }
  // A float32 tensor (destroyed at TearDown unless Forget() is called).
  aclTensor* Tensor(void* data, const Dims& view = {kN}, int64_t offset = 0, const Dims* storage = nullptr) {
    const Dims& st = storage ? *storage : view;
    aclTensor* t = aclCreateTensor(view.data(), view.size(), ACL_FLOAT, nullptr, offset, ACL_FORMAT_ND, st.data(),
                                   st.size(), data);
    EXPECT_NE(t, nullptr) << LastError();
    tensors_.push_back(t);
    return t;
  }
  void Forget(aclTensor* t) {
    for (auto it = tensors_.begin(); it != tensors_.end(); ++it)
      if (*it == t) {
        tensors_.erase(it);
        return;
      }
  }
  std::vector<float> Read(const void* dev, size_t n = kN) {
    EXPECT_OK(aclrtSynchronizeStream(stream_));
    std::vector<float> host(n, -1.0f);
    EXPECT_OK(aclrtMemcpy(host.data(), n * sizeof(float), dev, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    return host;
  }
  // Phase 1 of out = self + other.
  aclOpExecutor* PlanAdd(const aclTensor* self, const aclTensor* other, const aclTensor* out) {
    uint64_t ws = 123;
    aclOpExecutor* ex = nullptr;
    EXPECT_OK(aclnnAddGetWorkspaceSize(self, other, alpha_, const_cast<aclTensor*>(out), &ws, &ex));
    EXPECT_EQ(ws, 0u);
    EXPECT_NE(ex, nullptr);
    return ex;
  }

  aclrtStream stream_ = nullptr;
  aclScalar* alpha_ = nullptr;
  std::vector<aclTensor*> tensors_;
  std::vector<void*> device_;
};

const std::vector<float> kA{1, 2, 3, 4, 5, 6};
const std::vector<float> kB{10, 20, 30, 40, 50, 60};
const std::vector<float> kC{100, 200, 300, 400, 500, 600};

std::vector<float> Sum(const std::vector<float>& x, const std::vector<float>& y, float alpha = 1.0f) {
  std::vector<float> r(x.size());
  for (size_t i = 0; i < x.size(); ++i) r[i] = x[i] + alpha * y[i];
  return r;
}

// ---- the plain two-phase path -----------------------------------------------------------------------

TEST_F(ExecutorTest, AddRunsOnceAndIsConsumed) {
  void* da = Device(kA);
  void* db = Device(kB);
  void* dout = Device({}, kBytes);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(db);
  aclTensor* out = Tensor(dout);
  float two = 2.0f;
  aclScalar* alpha2 = aclCreateScalar(&two, ACL_FLOAT);
  uint64_t ws = 99;
  aclOpExecutor* ex = nullptr;
  ASSERT_OK(aclnnAddGetWorkspaceSize(a, b, alpha2, out, &ws, &ex));
  EXPECT_EQ(ws, 0u);
  ASSERT_NE(ex, nullptr);
  EXPECT_OK(aclDestroyScalar(alpha2));  // the plan holds alpha's value, not the scalar
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout), Sum(kA, kB, 2.0f));

  // The executor was consumed: reusing or destroying it is reported, never dereferenced.
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("not live"), HasSubstr("consumed"));
  EXPECT_NN_FAILS(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyAclOpExecutor"),
                  HasSubstr("not live"));
  EXPECT_NN_FAILS(aclSetAclOpExecutorRepeatable(ex), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclSetAclOpExecutorRepeatable"), HasSubstr("not live"));
  EXPECT_NN_FAILS(aclSetInputTensorAddr(ex, 0, a, da), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclSetInputTensorAddr"),
                  HasSubstr("not live"));
}

TEST_F(ExecutorTest, DefaultStreamAndOffsetInElements) {
  // self reads elements 2..7 of an 8-element storage: the offset counts elements, not bytes.
  std::vector<float> eight{-1, -2, 1, 2, 3, 4, 5, 6};
  void* ds = Device(eight);
  void* db = Device(kB);
  void* dout = Device({}, kBytes);
  const Dims storage{8};
  aclTensor* a = Tensor(ds, {kN}, 2, &storage);
  aclOpExecutor* ex = PlanAdd(a, Tensor(db), Tensor(dout));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, nullptr));  // the NULL stream is the default stream
  ASSERT_OK(aclrtSynchronizeStream(nullptr));
  std::vector<float> host(kN);
  ASSERT_OK(aclrtMemcpy(host.data(), kBytes, dout, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(host, Sum(kA, kB));
}

TEST_F(ExecutorTest, ObjectsMayGoRightAfterPhase2) {
  // Queued work keeps what it needs: destroying tensors (and freeing nothing else) right after
  // phase 2, before the stream runs, is safe.
  void* da = Device(kA);
  void* db = Device(kB);
  void* dout = Device({}, kBytes);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(db);
  aclTensor* out = Tensor(dout);
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  for (aclTensor* t : {a, b, out}) {
    EXPECT_OK(aclDestroyTensor(t));
    Forget(t);
  }
  EXPECT_EQ(Read(dout), Sum(kA, kB));
}

TEST_F(ExecutorTest, EmptyTensorsRunNothing) {
  void* d = Device({0.0f});
  aclTensor* a = Tensor(d, {0});
  aclTensor* b = Tensor(d, {0});
  aclTensor* out = Tensor(d, {0});
  aclOpExecutor* ex = PlanAdd(a, b, out);
  EXPECT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_OK(aclrtSynchronizeStream(stream_));
}

// ---- phase 1 and phase 2 argument checks ------------------------------------------------------------

TEST_F(ExecutorTest, Phase1NullOutParameters) {
  aclTensor* a = Tensor(Device(kA));
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_NN_FAILS(aclnnAddGetWorkspaceSize(a, b, alpha_, out, nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR,
                  HasSubstr("aclnnAddGetWorkspaceSize"), HasSubstr("'workspaceSize'"));
  EXPECT_NN_FAILS(aclnnAddGetWorkspaceSize(a, b, alpha_, out, &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR,
                  HasSubstr("aclnnAddGetWorkspaceSize"), HasSubstr("'executor'"));
  EXPECT_NN_FAILS(aclnnAddGetWorkspaceSize(nullptr, b, alpha_, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
                  HasSubstr("'self'"));
  EXPECT_NN_FAILS(aclnnAddGetWorkspaceSize(a, nullptr, alpha_, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
                  HasSubstr("'other'"));
  EXPECT_NN_FAILS(aclnnAddGetWorkspaceSize(a, b, nullptr, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
                  HasSubstr("'alpha'"));
  EXPECT_NN_FAILS(aclnnAddGetWorkspaceSize(a, b, alpha_, nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
                  HasSubstr("'out'"));
  EXPECT_EQ(ex, nullptr);
}

TEST_F(ExecutorTest, Phase2NullAndForeignExecutors) {
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR, HasSubstr("aclnnAdd"),
                  HasSubstr("'executor'"));
  int not_an_executor = 0;
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, reinterpret_cast<aclOpExecutor*>(&not_an_executor), stream_),
                  ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"), HasSubstr("not live"));
  // A tensor handle is not an executor either.
  aclTensor* t = Tensor(nullptr);
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, reinterpret_cast<aclOpExecutor*>(t), stream_), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("not live"));
  aclDataType dt = ACL_DT_UNDEFINED;
  EXPECT_OK(aclGetDataType(t, &dt));  // and it was left alone
}

TEST_F(ExecutorTest, ExecutorOfAnotherOpIsRefused) {
  void* da = Device(kA);
  void* db = Device(kB);
  void* dout = Device({}, kBytes);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(db);
  aclTensor* out = Tensor(dout);
  uint64_t ws = 0;
  aclOpExecutor* mul = nullptr;
  ASSERT_OK(aclnnMulGetWorkspaceSize(a, b, out, &ws, &mul));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, mul, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("aclnnMulGetWorkspaceSize"), HasSubstr("cannot be run by aclnnAdd"));
  // The failed call consumed it (a non-repeatable executor is consumed whatever the outcome).
  EXPECT_NN_FAILS(aclnnMul(nullptr, 0, mul, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnMul"),
                  HasSubstr("not live"));

  // A repeatable one survives the refusal and still runs under its own op.
  ASSERT_OK(aclnnMulGetWorkspaceSize(a, b, out, &ws, &mul));
  ASSERT_OK(aclSetAclOpExecutorRepeatable(mul));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, mul, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnMulGetWorkspaceSize"));
  ASSERT_OK(aclnnMul(nullptr, 0, mul, stream_));
  std::vector<float> expect(kN);
  for (int64_t i = 0; i < kN; ++i) expect[static_cast<size_t>(i)] = kA[static_cast<size_t>(i)] * kB[static_cast<size_t>(i)];
  EXPECT_EQ(Read(dout), expect);
  EXPECT_OK(aclDestroyAclOpExecutor(mul));
}

TEST_F(ExecutorTest, DestroyedStreamIsRefused) {
  aclTensor* a = Tensor(Device(kA));
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  aclOpExecutor* ex = PlanAdd(a, b, out);
  aclrtStream gone = nullptr;
  ASSERT_OK(aclrtCreateStream(&gone));
  ASSERT_OK(aclrtDestroyStream(gone));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, gone), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("not a live stream"));
}

// ---- repeatable executors ---------------------------------------------------------------------------

TEST_F(ExecutorTest, RepeatableRunsAgainWithRebinding) {
  void* da = Device(kA);
  void* db = Device(kB);
  void* dout = Device({}, kBytes);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(db);
  aclTensor* out = Tensor(dout);
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));

  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout), Sum(kA, kB));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));  // same buffers again
  EXPECT_EQ(Read(dout), Sum(kA, kB));

  // New buffers for every operand, through aclSetInputTensorAddr / aclSetOutputTensorAddr.
  void* dc = Device(kC);
  void* da2 = Device(kB);
  void* dout2 = Device({}, kBytes);
  EXPECT_OK(aclSetInputTensorAddr(ex, 0, a, da2));
  EXPECT_OK(aclSetInputTensorAddr(ex, 1, b, dc));
  EXPECT_OK(aclSetOutputTensorAddr(ex, 0, out, dout2));
  void* addr = nullptr;
  EXPECT_OK(aclGetRawTensorAddr(a, &addr));
  EXPECT_EQ(addr, da2);
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout2), Sum(kB, kC));
  EXPECT_EQ(Read(dout), Sum(kA, kB));  // the old output was left alone

  // The legacy capitalised names do the same.
  EXPECT_OK(AclSetInputTensorAddr(ex, 0, a, da));
  EXPECT_OK(AclSetInputTensorAddr(ex, 1, b, da));
  EXPECT_OK(AclSetOutputTensorAddr(ex, 0, out, dout));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout), Sum(kA, kA));

  // aclSetTensorAddr counts inputs and outputs together: index 2 is out.
  EXPECT_OK(aclSetTensorAddr(ex, 2, out, dout2));
  EXPECT_OK(AclSetTensorAddr(ex, 0, a, dc));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout2), Sum(kC, kA));

  // aclSetRawTensorAddr on a bound tensor is seen by the next run as well.
  EXPECT_OK(aclSetRawTensorAddr(out, dout));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout), Sum(kC, kA));

  EXPECT_OK(aclDestroyAclOpExecutor(ex));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("not live"));
  EXPECT_NN_FAILS(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclDestroyAclOpExecutor"),
                  HasSubstr("not live"));
  EXPECT_NN_FAILS(aclSetInputTensorAddr(ex, 0, a, da), ACLNN_ERR_PARAM_INVALID, HasSubstr("not live"));
}

TEST_F(ExecutorTest, RepeatableManyRunsQueued) {
  // Several runs queued back to back, each rebinding the output; every run sees its own binding.
  void* da = Device(kA);
  void* db = Device(kB);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(db);
  aclTensor* out = Tensor(Device({}, kBytes));
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));
  std::vector<void*> outs;
  for (int i = 0; i < 8; ++i) {
    outs.push_back(Device({}, kBytes));
    ASSERT_OK(aclSetOutputTensorAddr(ex, 0, out, outs.back()));
    ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  }
  EXPECT_OK(aclDestroyAclOpExecutor(ex));  // queued runs keep the plan alive
  for (void* o : outs) EXPECT_EQ(Read(o), Sum(kA, kB));
}

TEST_F(ExecutorTest, RepeatableOnlyBeforeTheFirstRun) {
  aclTensor* a = Tensor(Device(kA));
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));
  EXPECT_OK(aclSetAclOpExecutorRepeatable(ex));  // again before running: harmless
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_NN_FAILS(aclSetAclOpExecutorRepeatable(ex), ACLNN_ERR_INNER, HasSubstr("aclSetAclOpExecutorRepeatable"),
                  HasSubstr("already run"));
  EXPECT_OK(aclDestroyAclOpExecutor(ex));

  EXPECT_NN_FAILS(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR,
                  HasSubstr("aclSetAclOpExecutorRepeatable"), HasSubstr("'executor'"));
}

TEST_F(ExecutorTest, RebindingErrors) {
  void* da = Device(kA);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  aclTensor* stranger = Tensor(da);
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));

  EXPECT_NN_FAILS(aclSetInputTensorAddr(ex, 0, stranger, da), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclSetInputTensorAddr"), HasSubstr("not bound to this aclnnAdd executor"));
  EXPECT_NN_FAILS(aclSetOutputTensorAddr(ex, 0, stranger, da), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclSetOutputTensorAddr"), HasSubstr("not bound"));
  EXPECT_NN_FAILS(aclSetInputTensorAddr(ex, 2, a, da), ACLNN_ERR_PARAM_INVALID, HasSubstr("input index 2"),
                  HasSubstr("out of range"), HasSubstr("2 such tensors"));
  EXPECT_NN_FAILS(aclSetOutputTensorAddr(ex, 1, out, da), ACLNN_ERR_PARAM_INVALID, HasSubstr("output index 1"),
                  HasSubstr("out of range"));
  EXPECT_NN_FAILS(aclSetTensorAddr(ex, 3, out, da), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclSetTensorAddr"),
                  HasSubstr("index 3"), HasSubstr("out of range"));
  EXPECT_NN_FAILS(AclSetInputTensorAddr(ex, 7, a, da), ACLNN_ERR_PARAM_INVALID, HasSubstr("index 7"));
  EXPECT_NN_FAILS(aclSetInputTensorAddr(nullptr, 0, a, da), ACLNN_ERR_INNER_NULLPTR, HasSubstr("aclSetInputTensorAddr"),
                  HasSubstr("'executor'"));
  EXPECT_NN_FAILS(aclSetInputTensorAddr(ex, 0, nullptr, da), ACLNN_ERR_INNER_NULLPTR, HasSubstr("'tensor'"));
  EXPECT_NN_FAILS(aclSetOutputTensorAddr(ex, 0, nullptr, da), ACLNN_ERR_INNER_NULLPTR, HasSubstr("'tensor'"));

  // Tensor lists: dynamic rebinding checks the relative index.
  aclTensor* e0 = aclCreateTensor(Dims{kN}.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, Dims{kN}.data(), 1, nullptr);
  ASSERT_NE(e0, nullptr);
  const aclTensor* items[] = {e0};
  aclTensorList* list = aclCreateTensorList(items, 1);
  ASSERT_NE(list, nullptr);
  EXPECT_OK(aclSetDynamicInputTensorAddr(ex, 0, 0, list, da));
  void* addr = nullptr;
  EXPECT_OK(aclGetRawTensorAddr(e0, &addr));
  EXPECT_EQ(addr, da);
  EXPECT_NN_FAILS(aclSetDynamicInputTensorAddr(ex, 0, 1, list, da), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("aclSetDynamicInputTensorAddr"), HasSubstr("relativeIndex 1"), HasSubstr("out of range"));
  EXPECT_NN_FAILS(AclSetDynamicOutputTensorAddr(ex, 0, 5, list, da), ACLNN_ERR_PARAM_INVALID,
                  HasSubstr("relativeIndex 5"));
  EXPECT_NN_FAILS(aclSetDynamicTensorAddr(ex, 0, 0, nullptr, da), ACLNN_ERR_INNER_NULLPTR,
                  HasSubstr("aclSetDynamicTensorAddr"), HasSubstr("'tensors'"));
  EXPECT_NN_FAILS(aclSetDynamicInputTensorAddr(nullptr, 0, 0, list, da), ACLNN_ERR_INNER_NULLPTR,
                  HasSubstr("'executor'"));
  EXPECT_OK(aclDestroyTensorList(list));

  // The failed calls left the executor intact.
  void* dout = nullptr;
  EXPECT_OK(aclGetRawTensorAddr(out, &dout));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout), Sum(kA, kB));
  EXPECT_OK(aclDestroyAclOpExecutor(ex));
}

// ---- tensors that changed between the phases ---------------------------------------------------------

TEST_F(ExecutorTest, TensorReshapedBetweenPhases) {
  void* da = Device(kA);
  aclTensor* a = Tensor(da);
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));
  const Dims view{2, 3};
  ASSERT_OK(aclInitTensor(a, view.data(), view.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view.data(), view.size(),
                          da));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("tensor 'self' changed since phase 1"), HasSubstr("float32[6]"),
                  HasSubstr("float32[2, 3]"));
  // The dtype counts too.
  const Dims flat{kN};
  ASSERT_OK(aclInitTensor(a, flat.data(), 1, ACL_INT32, nullptr, 0, ACL_FORMAT_ND, flat.data(), 1, da));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("'self' changed"),
                  HasSubstr("int32"));
  // Restored, it runs again.
  ASSERT_OK(aclInitTensor(a, flat.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, flat.data(), 1, da));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  void* dout = nullptr;
  EXPECT_OK(aclGetRawTensorAddr(out, &dout));
  EXPECT_EQ(Read(dout), Sum(kA, kB));
  EXPECT_OK(aclDestroyAclOpExecutor(ex));

  // A non-repeatable executor is consumed by the refused call.
  ex = PlanAdd(a, b, out);
  const Dims storage{kN + 1};
  ASSERT_OK(aclInitTensor(out, flat.data(), 1, ACL_FLOAT, nullptr, 1, ACL_FORMAT_ND, storage.data(), 1, dout));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("tensor 'out' changed"),
                  HasSubstr("offset 1"));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("not live"));
}

TEST_F(ExecutorTest, TensorDestroyedBetweenPhases) {
  aclTensor* a = Tensor(Device(kA));
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclDestroyTensor(b));
  Forget(b);
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("tensor 'other'"), HasSubstr("destroyed between phase 1 and phase 2"));
}

TEST_F(ExecutorTest, TensorOnHostMemory) {
  std::vector<float> host_a(kA);
  aclTensor* a = Tensor(host_a.data());
  aclTensor* b = Tensor(Device(kB));
  aclTensor* out = Tensor(Device({}, kBytes));
  aclOpExecutor* ex = PlanAdd(a, b, out);  // phase 1 does not look at addresses
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("tensor 'self'"), HasSubstr("not device memory"), HasSubstr("aclrtMalloc"));

  void* pinned = nullptr;
  ASSERT_OK(aclrtMallocHost(&pinned, kBytes));
  EXPECT_OK(aclSetInputTensorAddr(ex, 0, a, pinned));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclrtMallocHost"),
                  HasSubstr("not device memory"));

  void* heap = std::malloc(kBytes);
  EXPECT_OK(aclSetOutputTensorAddr(ex, 0, out, heap));
  EXPECT_OK(aclSetInputTensorAddr(ex, 0, a, Device(kA)));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("tensor 'out'"),
                  HasSubstr("not device memory"));
  std::free(heap);
  EXPECT_OK(aclrtFreeHost(pinned));

  EXPECT_OK(aclSetOutputTensorAddr(ex, 0, out, nullptr));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("tensor 'out'"),
                  HasSubstr("no data address"));
  EXPECT_OK(aclDestroyAclOpExecutor(ex));
}

TEST_F(ExecutorTest, TensorOnFreedDeviceMemory) {
  aclTensor* a = Tensor(Device(kA));
  aclTensor* b = Tensor(Device(kB));
  void* dout = nullptr;
  ASSERT_OK(aclrtMalloc(&dout, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  aclTensor* out = Tensor(dout);
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclrtFree(dout));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("tensor 'out'"),
                  HasSubstr("already freed"));
}

TEST_F(ExecutorTest, ViewOverrunsItsDeviceAllocation) {
  // 64 floats described over an allocation of 8 floats (plus the runtime's small padding).
  void* small = Device({}, 8 * sizeof(float));
  void* db = Device(std::vector<float>(64, 1.0f));
  void* dout = Device({}, 64 * sizeof(float));
  const Dims view{64};
  aclTensor* a = Tensor(small, view);
  aclTensor* b = Tensor(db, view);
  aclTensor* out = Tensor(dout, view);
  aclOpExecutor* ex = PlanAdd(a, b, out);
  ASSERT_OK(aclSetAclOpExecutorRepeatable(ex));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("aclnnAdd"),
                  HasSubstr("tensor 'self'"), HasSubstr("overruns its device allocation of 32 bytes"));

  // An offset that pushes an otherwise fitting view past the end is caught the same way.
  EXPECT_OK(aclSetInputTensorAddr(ex, 0, a, db));
  EXPECT_OK(aclSetOutputTensorAddr(ex, 0, out, static_cast<char*>(dout) + 64 * sizeof(float) - 16));
  EXPECT_NN_FAILS(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID, HasSubstr("tensor 'out'"),
                  HasSubstr("overruns"));
  EXPECT_OK(aclSetOutputTensorAddr(ex, 0, out, dout));
  ASSERT_OK(aclnnAdd(nullptr, 0, ex, stream_));
  EXPECT_EQ(Read(dout, 64), std::vector<float>(64, 2.0f));
  EXPECT_OK(aclDestroyAclOpExecutor(ex));
}

}  // namespace
