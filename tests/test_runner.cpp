// The op runner's call paths: the builder by name (signature table, dlsym, libffi), the typed path,
// every op of the table through both, argument checking, errors that explain, and lifetimes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <cstdlib>
#include <map>
#include <memory>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_round.h"
#include "test_runner_util.h"

namespace {

using rt::Floats;
using Runner = rt::RunnerTest;

// Compile-time checks of the typed path: what each parameter accepts.
using pacl::detail::Adapt;
static_assert(Adapt<const aclTensor*, aclTensor*>::ok);
static_assert(Adapt<const aclTensor*, std::nullptr_t>::ok);
static_assert(!Adapt<aclTensor*, const aclTensor*>::ok, "an output takes a mutable tensor");
static_assert(Adapt<const aclScalar*, pacl::Scalar>::ok && Adapt<const aclScalar*, float>::ok &&
              Adapt<const aclScalar*, aclScalar*>::ok);
static_assert(!Adapt<const aclScalar*, aclTensor*>::ok);
static_assert(Adapt<const aclIntArray*, pacl::IntArray>::ok && Adapt<const aclIntArray*, std::vector<int64_t>>::ok);
static_assert(!Adapt<const aclIntArray*, std::vector<float>>::ok);
static_assert(Adapt<const aclTensorList*, pacl::TensorList>::ok && Adapt<const aclTensorList*, std::vector<aclTensor*>>::ok);
static_assert(Adapt<int64_t, int>::ok && Adapt<int8_t, int64_t>::ok);
static_assert(!Adapt<int64_t, double>::ok && !Adapt<bool, int>::ok && !Adapt<aclDataType, int>::ok);
static_assert(Adapt<double, float>::ok && Adapt<float, int>::ok);
static_assert(Adapt<const char*, const char*>::ok && Adapt<const char*, std::string>::ok);

void ExpectFloats(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) ASSERT_FLOAT_EQ(got[i], want[i]) << what << " at " << i;
}

TEST_F(Runner, BuilderRunsAdd) {
  Floats a({2, 3}, 0, 1), b({2, 3}, 10, 2), out({2, 3});
  const pacl::RunInfo info = pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(0.5f).AddOutput(out).Run();
  EXPECT_FALSE(info.cache_hit);
  EXPECT_TRUE(info.cached);
  std::vector<float> want(6);
  for (int i = 0; i < 6; ++i) want[i] = static_cast<float>(i) + 0.5f * (10.0f + 2.0f * static_cast<float>(i));
  ExpectFloats(out.Read(), want, "Add by name");
  // "aclnnAdd" names the same op.
  EXPECT_TRUE(pacl::OpRunner("aclnnAdd", stream).AddInput(a).AddInput(b).AddScalar(0.5f).AddOutput(out).Run().cache_hit);
}

TEST_F(Runner, TypedRunsAddAndPermute) {
  Floats a({2, 3}, 1, 1), b({2, 3}, 0, 0.5f), out({2, 3}), perm({3, 2});
  pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), 2.0f, out.get());
  std::vector<float> want(6);
  for (int i = 0; i < 6; ++i) want[i] = 1.0f + static_cast<float>(i) + 2.0f * 0.5f * static_cast<float>(i);
  ExpectFloats(out.Read(), want, "typed Add");
  pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, out.get(), std::vector<int64_t>{1, 0}, perm.get());
  const std::vector<float> p = perm.Read();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_FLOAT_EQ(p[static_cast<size_t>(i * 2 + j)], want[static_cast<size_t>(j * 3 + i)]);
  // pacl::IntArray and a raw aclIntArray* work as well (the raw handle bypasses the cache).
  pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, out.get(), pacl::IntArray{1, 0}, perm.get());
  const int64_t dims[2] = {1, 0};
  aclIntArray* raw = aclCreateIntArray(dims, 2);
  const uint64_t bypasses = pacl::GetCacheStats().bypasses;
  const pacl::RunInfo info = pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, out.get(), raw, perm.get());
  EXPECT_FALSE(info.cached);
  EXPECT_EQ(pacl::GetCacheStats().bypasses, bypasses + 1);
  EXPECT_EQ(aclDestroyIntArray(raw), 0);  // still the caller's
  ExpectFloats(perm.Read(), p, "Permute with a raw dims array");
}

TEST_F(Runner, TypedAndBuilderShareCacheEntries) {
  Floats a({4}, 1, 1), b({4}, 1, 1), out({4});
  EXPECT_FALSE(pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), pacl::Scalar(1.0f), out.get()).cache_hit);
  EXPECT_TRUE(pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(1.0f).AddOutput(out).Run().cache_hit);
}

TEST_F(Runner, PlainAttributesBothPaths) {
  Floats x({2, 3}, -1.0f, 0.37f), y1({2, 3}), y2({2, 3});
  // int64 attribute (GeluV2 approximate), both paths, same result.
  pacl::Run(stream, aclnnGeluV2GetWorkspaceSize, aclnnGeluV2, x.get(), int64_t{1}, y1.get());
  pacl::OpRunner("GeluV2", stream).AddInput(x).AddAttr(1).AddOutput(y2).Run();
  ExpectFloats(y2.Read(), y1.Read(), "GeluV2 approximate=1, builder vs typed");
  // aclDataType attribute (Cast): float32 -> int32 -> compare truncation.
  rt::DeviceBuffer ib(6 * 4);
  rt::Tensor i32({2, 3}, ACL_INT32, ib.ptr);
  pacl::OpRunner("Cast", stream).AddInput(x).AddAttr(ACL_INT32).AddOutput(i32).Run();
  std::vector<int32_t> got(6);
  ASSERT_EQ(aclrtMemcpy(got.data(), 24, ib.ptr, 24, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  const std::vector<float> xs = x.Read();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], static_cast<int32_t>(xs[static_cast<size_t>(i)]));
  // bool attribute (LeakyReluBackward selfIsResult) and a scalar.
  Floats g({2, 3}, 1, 1);
  pacl::Run(stream, aclnnLeakyReluBackwardGetWorkspaceSize, aclnnLeakyReluBackward, g.get(), x.get(), 0.25f, false, y1.get());
  pacl::OpRunner("LeakyReluBackward", stream).AddInput(g).AddInput(x).AddScalar(0.25f).AddAttr(false).AddOutput(y2).Run();
  ExpectFloats(y2.Read(), y1.Read(), "LeakyReluBackward builder vs typed");
  const std::vector<float> r = y1.Read(), gs = g.Read();
  for (int i = 0; i < 6; ++i) {
    const size_t k = static_cast<size_t>(i);
    EXPECT_FLOAT_EQ(r[k], xs[k] > 0 ? gs[k] : 0.25f * gs[k]);
  }
}

TEST_F(Runner, TensorListsScalarsAndRegisteredOps) {
  rt::RegisterFillOp();
  EXPECT_TRUE(pacl::OpExists("RunnerTestFill"));
  Floats x0({2}), x1({3}), x2({4}), out({5});
  pacl::OpRunner("RunnerTestFill", stream)
      .AddTensorList({x0.get(), x1.get(), x2.get()})
      .AddScalar(2.5f)
      .AddAttr(0)
      .AddOutput(out)
      .Run();
  EXPECT_EQ(rt::Probe().last_list_size, 3u);
  ExpectFloats(out.Read(), std::vector<float>(5, 2.5f), "fill by name");
  // Typed, with a list of two and a double scalar.
  pacl::Run(stream, aclnnRunnerTestFillGetWorkspaceSize, aclnnRunnerTestFill, pacl::TensorList{x0.get(), x2.get()},
            pacl::Scalar(-1.0), int64_t{0}, out.get());
  EXPECT_EQ(rt::Probe().last_list_size, 2u);
  ExpectFloats(out.Read(), std::vector<float>(5, -1.0f), "fill typed");
  // The list's elements are copies: the caller's tensors are untouched and still theirs.
  int64_t* dims = nullptr;
  uint64_t nd = 0;
  ASSERT_EQ(aclGetViewShape(x1.get(), &dims, &nd), 0);
  delete[] dims;
}

TEST_F(Runner, WrongArgumentsAreReportedNotCalled) {
  rt::RegisterFillOp();
  Floats a({3}), b({3}), out({3});
  struct Case {
    std::function<void(pacl::OpRunner&)> fill;
    const char* op;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddScalar(1.0f).AddInput(b).AddOutput(out); }, "Add",
       {"argument 1 'other'", "const aclTensor* other", "AddInput/AddOutput", "a scalar (AddScalar)"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddInput(b).AddInput(b).AddOutput(out); }, "Add",
       {"argument 2 'alpha'", "AddScalar", "a tensor"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddInput(b).AddScalar(1.0f); }, "Add",
       {"takes 4 arguments (self, other, alpha, out)", "3 were given"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddInput(b).AddScalar(1.0f).AddOutput(out).AddOutput(out); }, "Add",
       {"takes 4 arguments", "5 were given"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddAttr(1.5).AddOutput(out); }, "GeluV2",
       {"argument 1 'approximate'", "AddAttr(<integer>)", "a floating-point value"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddInput(b).AddScalar(0.1f).AddAttr(1).AddOutput(out); },
       "LeakyReluBackward", {"'selfIsResult'", "AddAttr(true/false)", "an integer"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddAttr(3).AddOutput(out); }, "Cast", {"'dtype'", "aclDataType"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddIntArray({1, 0}).AddOutput(out).AddAttr(ACL_FLOAT); }, "Permute",
       {"takes 3 arguments"}},
      {[&](pacl::OpRunner& r) { r.AddTensorList({a.get()}).AddScalar(1.0f).AddAttr(1.0f).AddOutput(out); },
       "RunnerTestFill", {"'workspaceBytes'", "AddAttr(<integer>)"}},
      {[&](pacl::OpRunner& r) { r.AddInput(a).AddScalar(1.0f).AddAttr(0).AddOutput(out); }, "RunnerTestFill",
       {"argument 0 'xs'", "AddTensorList", "a tensor"}},
  };
  const int calls = rt::Probe().phase1_calls;
  for (const Case& c : cases) {
    pacl::OpRunner r(c.op, stream);
    c.fill(r);
    const pacl::Status s = r.TryRun();
    ASSERT_FALSE(s.ok()) << c.op;
    EXPECT_EQ(s.phase(), pacl::Phase::kArguments) << s.ToString();
    EXPECT_EQ(s.code(), 161002) << s.ToString();
    for (const std::string& m : c.mentions) EXPECT_NE(s.ToString().find(m), std::string::npos) << "'" << m << "' not in: " << s.ToString();
    EXPECT_THROW(r.Run(), pacl::RunnerError);
  }
  EXPECT_EQ(rt::Probe().phase1_calls, calls) << "a mismatched call reached phase 1";
  // Integers are range-checked against the parameter's C type.
  pacl::RegisterOp("RunnerTestNarrow", "const aclTensor* x, int8_t small, uint64_t big, aclTensor* y, "
                                       "uint64_t* workspaceSize, aclOpExecutor** executor");
  for (auto fill : std::vector<std::function<void(pacl::OpRunner&)>>{
           [&](pacl::OpRunner& r) { r.AddInput(a).AddAttr(200).AddAttr(1).AddOutput(out); },
           [&](pacl::OpRunner& r) { r.AddInput(a).AddAttr(-129).AddAttr(1).AddOutput(out); },
           [&](pacl::OpRunner& r) { r.AddInput(a).AddAttr(1).AddAttr(-1).AddOutput(out); }}) {
    pacl::OpRunner r("RunnerTestNarrow", stream);
    fill(r);
    const pacl::Status s = r.TryRun();
    EXPECT_EQ(s.phase(), pacl::Phase::kArguments);
    EXPECT_NE(s.detail().find("does not fit"), std::string::npos) << s.ToString();
  }
  // Arguments that fit reach symbol resolution, which reports the missing symbol.
  const pacl::Status s = pacl::OpRunner("RunnerTestNarrow", stream)
                             .AddInput(a)
                             .AddAttr(-128)
                             .AddAttr(uint64_t{UINT64_MAX})
                             .AddOutput(out)
                             .TryRun();
  EXPECT_EQ(s.phase(), pacl::Phase::kResolve);
  EXPECT_NE(s.detail().find("no loaded library exports it"), std::string::npos) << s.ToString();
}

TEST_F(Runner, UnknownOpsAndSignatures) {
  Floats a({3}), out({3});
  const pacl::Status s = pacl::OpRunner("Ad", stream).AddInput(a).AddOutput(out).TryRun();
  EXPECT_EQ(s.phase(), pacl::Phase::kResolve);
  EXPECT_NE(s.detail().find("unknown op 'Ad'"), std::string::npos) << s.ToString();
  EXPECT_NE(s.detail().find("did you mean"), std::string::npos) << s.ToString();
  EXPECT_NE(s.detail().find("Add"), std::string::npos) << s.ToString();
  EXPECT_THROW(pacl::OpPrototype("NoSuchOp"), pacl::RunnerError);
  EXPECT_NE(pacl::OpPrototype("aclnnAdd").find("const aclScalar* alpha"), std::string::npos);
  const std::vector<std::string> ops = pacl::KnownOps();
  for (const char* op : {"Add", "InplaceAdd", "Adds", "Mul", "Exp", "Permute", "Cast", "GeluV2", "RoundDecimals"})
    EXPECT_TRUE(std::find(ops.begin(), ops.end(), op) != ops.end()) << op;
  EXPECT_GT(ops.size(), 200u);
  // Signatures the runner cannot pass are refused when registered.
  EXPECT_THROW(pacl::RegisterOp("Bad1", "void* p, uint64_t* workspaceSize, aclOpExecutor** executor"), pacl::RunnerError);
  EXPECT_THROW(pacl::RegisterOp("Bad2", "const aclTensor* x, aclTensor* y"), pacl::RunnerError);
  EXPECT_THROW(pacl::RegisterOp("Bad3", "const aclTensor* const* xs, uint64_t* w, aclOpExecutor** e"), pacl::RunnerError);
  EXPECT_THROW(pacl::RegisterOp("Bad 4", "uint64_t* w, aclOpExecutor** e"), pacl::RunnerError);
  try {
    pacl::RegisterOp("Bad5", "const aclTensor* x, struct foo* y, uint64_t* w, aclOpExecutor** e");
    ADD_FAILURE();
  } catch (const pacl::RunnerError& e) {
    EXPECT_NE(std::string(e.what()).find("struct foo* y"), std::string::npos) << e.what();
  }
}

TEST_F(Runner, Phase1ErrorsExplainThemselves) {
  Floats a({2, 3}), b({3, 2}), out({2, 3});
  for (bool typed : {false, true}) {
    const pacl::Status s =
        typed ? pacl::TryRun(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), pacl::Scalar(1.0f), out.get())
              : pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(1.0f).AddOutput(out).TryRun();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.op(), "Add");
    EXPECT_EQ(s.phase(), pacl::Phase::kPhase1);
    EXPECT_EQ(s.code(), 161002);
    EXPECT_STREQ(pacl::StatusName(s.code()), "ACLNN_ERR_PARAM_INVALID");
    EXPECT_EQ(s.args(), "self=float32[2,3] other=float32[3,2] alpha=1(float32) out=float32[2,3]");
    EXPECT_FALSE(s.acl_message().empty());
    const std::string line = s.ToString();
    for (const char* m : {"aclnnAdd", "phase 1", "161002", "ACLNN_ERR_PARAM_INVALID", "other=float32[3,2]", "CANN: "})
      EXPECT_NE(line.find(m), std::string::npos) << m << " not in " << line;
    EXPECT_EQ(line.find('\n'), std::string::npos);
  }
  try {
    pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), pacl::Scalar(1.0f), out.get());
    ADD_FAILURE();
  } catch (const pacl::RunnerError& e) {
    EXPECT_EQ(e.status().phase(), pacl::Phase::kPhase1);
    EXPECT_NE(std::string(e.what()).find("ACLNN_ERR_PARAM_INVALID"), std::string::npos);
  }
  // Strided / offset / non-ND views are described in the summary.
  rt::DeviceBuffer buf(64 * 4);
  rt::Tensor t({2, 3}, ACL_FLOAT, buf.ptr, {1, 2}, 4, ACL_FORMAT_NCHW, {16});
  const pacl::Status s = pacl::OpRunner("Add", stream).AddInput(t).AddInput(b).AddScalar(2).AddOutput(out).TryRun();
  EXPECT_NE(s.args().find("self=float32[2,3](strides [1,2])(offset 4)(NCHW)"), std::string::npos) << s.args();
  EXPECT_NE(s.args().find("alpha=2(int32)"), std::string::npos) << s.args();
}

TEST_F(Runner, Phase2ErrorsExplainThemselves) {
  Floats a({4}), out({4});
  std::vector<float> host(4, 1.0f);
  rt::Tensor h({4}, ACL_FLOAT, host.data());  // host memory: phase 1 accepts it, phase 2 does not
  for (bool cache : {true, false}) {
    pacl::RunOptions o;
    o.stream = stream;
    o.cache = cache;
    const pacl::Status s = pacl::TryRun(o, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), h.t, pacl::Scalar(1.0f), out.get());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.phase(), pacl::Phase::kPhase2) << s.ToString();
    EXPECT_NE(s.acl_message().find("not device memory"), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("other=float32[4]"), std::string::npos) << s.ToString();
  }
}

int CheckReturn(int status) {
  PACL_CHECK_RETURN(status);
  return 7;
}

TEST_F(Runner, StatusNamesAndCheckHelpers) {
  EXPECT_STREQ(pacl::StatusName(0), "ACL_SUCCESS");
  EXPECT_STREQ(pacl::StatusName(161001), "ACLNN_ERR_PARAM_NULLPTR");
  EXPECT_STREQ(pacl::StatusName(561103), "ACLNN_ERR_INNER_NULLPTR");
  EXPECT_STREQ(pacl::StatusName(100000), "ACL_ERROR_INVALID_PARAM");
  EXPECT_STREQ(pacl::StatusName(207001), "ACL_ERROR_RT_MEMORY_ALLOCATION");
  EXPECT_EQ(pacl::StatusName(123456), nullptr);
  EXPECT_NO_THROW(PACL_CHECK(aclrtSynchronizeStream(stream)));
  try {
    PACL_CHECK(aclrtMemcpy(nullptr, 4, nullptr, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ADD_FAILURE();
  } catch (const pacl::RunnerError& e) {
    const std::string w = e.what();
    EXPECT_EQ(e.status().phase(), pacl::Phase::kCheck);
    EXPECT_NE(w.find("aclrtMemcpy(nullptr, 4, nullptr, 4, ACL_MEMCPY_HOST_TO_DEVICE)"), std::string::npos) << w;
    EXPECT_NE(w.find("ACL_ERROR_INVALID_PARAM"), std::string::npos) << w;
    EXPECT_NE(w.find("test_runner.cpp:"), std::string::npos) << w;
    EXPECT_NE(w.find("CANN: "), std::string::npos) << w;
  }
  EXPECT_EQ(CheckReturn(0), 7);
  testing::internal::CaptureStderr();
  EXPECT_EQ(CheckReturn(161002), 161002);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("ACLNN_ERR_PARAM_INVALID"), std::string::npos) << err;
}

TEST_F(Runner, LaunchKeepsWhatItOwnsUntilTheStreamPasses) {
  rt::RegisterFillOp();
  Floats a({64}, 1, 0), out({64});
  std::vector<std::unique_ptr<Floats>> outs;
  for (int i = 0; i < 8; ++i) outs.push_back(std::make_unique<Floats>(std::vector<int64_t>{64}));
  const size_t before = rt::DeviceBytesInUse();
  {
    rt::StreamGate gate(stream);
    for (int i = 0; i < 8; ++i) {
      pacl::RunOptions o;
      o.stream = stream;
      o.workspace = pacl::WorkspaceStrategy::kPerCall;
      o.cache = i % 2 == 0;  // cached executors and runner-made handles of bypass calls
      pacl::Launch(o, aclnnRunnerTestFillGetWorkspaceSize, aclnnRunnerTestFill, pacl::TensorList{a.get()},
                   pacl::Scalar(static_cast<float>(i)), int64_t{4096 + i}, outs[static_cast<size_t>(i)]->get());
    }
    pacl::ClearCache();  // evicts executors whose work has not run yet
    EXPECT_EQ(pacl::GetCacheStats().entries, 0u);
    EXPECT_GE(pacl::GetWorkspaceStats().pending, 8u);
    EXPECT_GE(rt::DeviceBytesInUse(), before + 8 * 4096) << "per-call workspaces were freed before their op ran";
    gate.Open();
  }
  pacl::Synchronize(stream);
  EXPECT_EQ(pacl::GetWorkspaceStats().pending, 0u);
  EXPECT_EQ(rt::DeviceBytesInUse(), before);
  for (int i = 0; i < 8; ++i) ExpectFloats(outs[static_cast<size_t>(i)]->Read(), std::vector<float>(64, static_cast<float>(i)), "launch " + std::to_string(i));
}

TEST_F(Runner, NeverDestroysWhatTheCallerOwns) {
  Floats a({3}), b({3}), out({3});
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  const int64_t d[1] = {0};
  aclIntArray* dims = aclCreateIntArray(d, 1);
  for (int i = 0; i < 3; ++i) {
    pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(alpha).AddOutput(out).Run();
    pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(alpha).AddOutput(out).Launch();
    pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, a.get(), dims, out.get());
    pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.get(), b.get(), alpha, out.get());
  }
  pacl::Synchronize(stream);
  pacl::ClearCache();
  pacl::ReleaseResources();
  // Each handle is still live exactly once: destroying succeeds, and a second destroy is refused.
  EXPECT_EQ(aclDestroyScalar(alpha), 0);
  EXPECT_NE(aclDestroyScalar(alpha), 0);
  EXPECT_EQ(aclDestroyIntArray(dims), 0);
  for (aclTensor* t : {a.get(), b.get(), out.get()}) {
    aclDataType dt;
    EXPECT_EQ(aclGetDataType(t, &dt), 0);
  }
}

// ---- every op of the signature table, by name and typed ------------------------------------------

struct OpCaseArgs {
  explicit OpCaseArgs(aclrtStream s) { opts.stream = s; }
  const pacl::RunOptions& options() const { return opts; }
  aclTensor* tensor(int k, bool out) {
    auto& t = tensors[k];
    if (!t) {
      t = std::make_unique<Floats>(std::vector<int64_t>{2, 3}, out ? 0.0f : 0.2f + 0.01f * static_cast<float>(k),
                                   out ? 0.0f : 0.1f);
      initial[k] = t->Read();
    }
    return t->get();
  }
  const pacl::TensorList& tensor_list(int k) {
    if (!lists[k]) {
      lists[k] = std::make_unique<pacl::TensorList>(
          std::vector<const aclTensor*>{tensor(100 + 2 * k, false), tensor(101 + 2 * k, false)});
    }
    return *lists[k];
  }
  pacl::Scalar scalar(int) const { return pacl::Scalar(0.5f); }
  pacl::ScalarList scalar_list(int) const { return pacl::ScalarList{0.5f, 1.0f}; }
  const pacl::IntArray& int_array(int) const { return dims; }
  pacl::FloatArray float_array(int) const { return pacl::FloatArray{0.5f}; }
  pacl::BoolArray bool_array(int) const { return pacl::BoolArray{true, false}; }
  std::vector<bool> bool_vector(int) const { return {true, false}; }
  int64_t integer(int) const { return 0; }
  double real(int) const { return 0.5; }
  bool boolean(int) const { return false; }
  aclDataType dtype(int) const { return ACL_FLOAT; }
  const char* text(int) const { return "none"; }

  void Reset() {
    for (auto& kv : tensors) kv.second->buf.Fill(initial[kv.first]);
  }
  std::vector<std::vector<float>> Snapshot() {
    std::vector<std::vector<float>> s;
    for (auto& kv : tensors) s.push_back(kv.second->Read());
    return s;
  }

  pacl::RunOptions opts;
  pacl::IntArray dims{0, 1};
  std::map<int, std::unique_ptr<Floats>> tensors;
  std::map<int, std::vector<float>> initial;
  std::map<int, std::unique_ptr<pacl::TensorList>> lists;
};

}  // namespace

#define PACL_OP_CASE_HEADERS
#include "op_cases.inc"
#undef PACL_OP_CASE_HEADERS

namespace {

struct OpCase {
  const char* name;
  pacl::Status (*typed)(OpCaseArgs&);
  void (*builder)(OpCaseArgs&, pacl::OpRunner&);
};
const OpCase kOpCases[] = {
#include "op_cases.inc"
};

bool SameBits(const std::vector<std::vector<float>>& x, const std::vector<std::vector<float>>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].size() != y[i].size() || std::memcmp(x[i].data(), y[i].data(), x[i].size() * 4) != 0) return false;
  return true;
}

TEST_F(Runner, EveryOpRunsByNameAndTyped) {
  int ran = 0, rejected = 0;
  std::string rejected_ops;
  for (const OpCase& c : kOpCases) {
    OpCaseArgs args(stream);
    // Typed, planned (cache miss).
    args.Reset();
    const pacl::Status typed = c.typed(args);
    const auto typed_out = args.Snapshot();
    // By name: the same key, so the typed call's executor is reused.
    args.Reset();
    pacl::OpRunner r(c.name, stream);
    c.builder(args, r);
    pacl::RunInfo info;
    const pacl::Status named = r.TryRun(&info);
    const auto named_out = args.Snapshot();
    // By name, bypassing the cache.
    args.Reset();
    pacl::OpRunner r2(c.name, stream);
    c.builder(args, r2);
    r2.Cache(false);
    const pacl::Status uncached = r2.TryRun();
    const auto uncached_out = args.Snapshot();

    EXPECT_EQ(typed.code(), named.code()) << c.name << ": typed " << typed.ToString() << " / by name " << named.ToString();
    EXPECT_EQ(typed.code(), uncached.code()) << c.name << ": " << uncached.ToString();
    if (typed.ok()) {
      ++ran;
      EXPECT_TRUE(info.cache_hit) << c.name;
      EXPECT_TRUE(SameBits(typed_out, named_out)) << c.name << ": by name differs from typed";
      EXPECT_TRUE(SameBits(typed_out, uncached_out)) << c.name << ": the cached executor differs from a fresh one";
    } else {
      ++rejected;
      rejected_ops += std::string(" ") + c.name;
      // The op refused these arguments in phase 1, with its own message: never a runner failure.
      EXPECT_EQ(typed.phase(), pacl::Phase::kPhase1) << c.name << ": " << typed.ToString();
      EXPECT_EQ(named.phase(), pacl::Phase::kPhase1) << c.name << ": " << named.ToString();
      EXPECT_FALSE(typed.acl_message().empty()) << c.name;
    }
  }
  std::printf("every op: %d ran through both paths, %d refused the float32 test arguments:%s\n", ran, rejected,
              rejected_ops.c_str());
  EXPECT_EQ(ran + rejected, static_cast<int>(sizeof kOpCases / sizeof kOpCases[0]));
  EXPECT_GE(ran, 150);
}

}  // namespace
