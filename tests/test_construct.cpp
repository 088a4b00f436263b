// Constructors through the public C API: Arange, Range, Linspace, Eye. References are written from
// the definitions in double (long double for the sizes); float outputs may differ from the double
// reference by the rounding of float arithmetic (a few ulp), integers must match exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_range.h"
#include "movement_test_util.h"

namespace {

using namespace optest;

// |got - want| within a few ulp of dtype t (integers exactly; the float forms also 1e-6 absolute
// for values near zero).
bool close(aclDataType t, double want, const Num& got) {
  if (!is_floating(t)) return static_cast<double>(got.i) == std::trunc(want);
  const Num w = cast(Num::real(want), t);
  if (t == ACL_DOUBLE) return std::fabs(got.f - want) <= 1e-12 * std::max(1.0, std::fabs(want));
  return ulp_distance(t, w.f, got.f) <= 4 || std::fabs(got.f - want) <= 1e-6;
}

const std::vector<aclDataType> kRangeOut = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_BF16};

TEST(Arange, RandomIntegerAndFloatRanges) {
  Rng rng(201);
  for (int iter = 0; iter < 200; ++iter) {
    const aclDataType t = kRangeOut[static_cast<size_t>(iter) % kRangeOut.size()];
    const bool inclusive = iter % 2;
    const bool integral = iter % 3 != 0;
    double start, end, step;
    ScalarDesc sd, ed, pd;
    if (integral) {
      start = static_cast<double>(static_cast<int64_t>(rng() % 41) - 20);
      step = static_cast<double>(static_cast<int64_t>(rng() % 7) + 1) * (rng() % 2 ? 1 : -1);
      end = start + step * static_cast<double>(rng() % 12) + (rng() % 2 ? step / 2 : 0);
      end = std::trunc(end);
      const aclDataType it = rng() % 2 ? ACL_INT64 : ACL_INT32;
      sd = ScalarDesc(it, start), ed = ScalarDesc(it, end), pd = ScalarDesc(it, step);
    } else {
      start = (static_cast<double>(rng() % 2001) - 1000) / 64.0;
      step = (static_cast<double>(rng() % 200) + 1) / 37.0 * (rng() % 2 ? 1 : -1);
      end = start + step * (static_cast<double>(rng() % 1000) / 50.0);
      sd = ScalarDesc(ACL_DOUBLE, start), ed = ScalarDesc(ACL_DOUBLE, end), pd = ScalarDesc(ACL_DOUBLE, step);
    }
    const long double q = (static_cast<long double>(end) - start) / step;
    const int64_t n = inclusive ? static_cast<int64_t>(std::floor(q)) + 1 : static_cast<int64_t>(std::ceil(q));
    // Skip the float cases whose size is within rounding of an integer: CANN and PyTorch may differ.
    if (!integral && std::fabs(q - std::round(q)) < 1e-9) continue;
    Tensor out(TensorDesc(t, {n}));
    Scalar s(sd), e(ed), p(pd);
    const std::string r = std::string(inclusive ? "Range" : "Arange") + " start=" + sd.str() + " end=" + ed.str() + " step=" + pd.str() + " out=" + out.desc().str();
    const bool ok = inclusive
                        ? run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnRangeGetWorkspaceSize(s.get(), e.get(), p.get(), out.get(), w, x); }, aclnnRange)
                        : run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnArangeGetWorkspaceSize(s.get(), e.get(), p.get(), out.get(), w, x); }, aclnnArange);
    if (!ok) return;
    out.download();
    for (int64_t i = 0; i < n; ++i) {
      const double want = start + static_cast<double>(i) * step;
      EXPECT_TRUE(close(t, want, out.at({i}))) << r << ": out[" << i << "] is " << num_str(out.at({i})) << ", expected " << want;
    }
    if (HasFailure()) return;
  }
}

TEST(Arange, BadArguments) {
  Tensor out(TensorDesc(ACL_FLOAT, {4})), out_i8(TensorDesc(ACL_INT8, {4}));
  Scalar zero(ScalarDesc(ACL_INT64, 0.0)), one(ScalarDesc(ACL_INT64, 1.0)), four(ScalarDesc(ACL_INT64, 4.0));
  Scalar minus(ScalarDesc(ACL_INT64, -1.0)), inf(ScalarDesc(ACL_FLOAT, HUGE_VAL)), f(ScalarDesc(ACL_BOOL, 0.0));
  auto arange = [&](aclScalar* s, aclScalar* e, aclScalar* st, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** x) { return aclnnArangeGetWorkspaceSize(s, e, st, o, w, x); };
  };
  expect_phase1_error("null step", ACLNN_ERR_PARAM_NULLPTR, "step", arange(zero.get(), four.get(), nullptr, out.get()));
  expect_phase1_error("zero step", ACLNN_ERR_PARAM_INVALID, "expected a nonzero step", arange(zero.get(), four.get(), zero.get(), out.get()));
  expect_phase1_error("sign", ACLNN_ERR_PARAM_INVALID, "inconsistent with the sign of step", arange(zero.get(), four.get(), minus.get(), out.get()));
  expect_phase1_error("inf", ACLNN_ERR_PARAM_INVALID, "end is float32(inf), expected a finite value", arange(zero.get(), inf.get(), one.get(), out.get()));
  expect_phase1_error("bool step", ACLNN_ERR_PARAM_INVALID, "expected true", arange(zero.get(), four.get(), f.get(), out.get()));
  expect_phase1_error("size", ACLNN_ERR_PARAM_INVALID, "expected the arange's shape [3]", arange(one.get(), four.get(), one.get(), out.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out dtype int8", arange(zero.get(), four.get(), one.get(), out_i8.get()));
  expect_phase1_error("range size", ACLNN_ERR_PARAM_INVALID, "expected the range's shape [5]",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnRangeGetWorkspaceSize(zero.get(), four.get(), one.get(), out.get(), w, x); });
}

TEST(Linspace, RandomEndpointsAndSteps) {
  Rng rng(202);
  const std::vector<aclDataType> types = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT8, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
  for (int iter = 0; iter < 160; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int64_t steps = static_cast<int64_t>(rng() % 12);
    double start = static_cast<double>(static_cast<int64_t>(rng() % 101) - 50) / (is_floating(t) ? 8.0 : 1.0);
    double end = static_cast<double>(static_cast<int64_t>(rng() % 101) - 50) / (is_floating(t) ? 8.0 : 1.0);
    if (t == ACL_UINT8) start = std::fabs(start), end = std::fabs(end);
    const ScalarDesc sd(is_floating(t) ? ACL_DOUBLE : ACL_INT64, start), ed(is_floating(t) ? ACL_FLOAT : ACL_INT32, end);
    Tensor out(random_view(t, rng() % 2 ? Shape{steps} : Shape{1, steps}, rng));
    Scalar s(sd), e(ed);
    const std::string r = "Linspace start=" + sd.str() + " end=" + ed.str() + " steps=" + std::to_string(steps) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnLinspaceGetWorkspaceSize(s.get(), e.get(), steps, out.get(), w, x); }, aclnnLinspace))
      return;
    out.download();
    const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
    for (int64_t i = 0; i < steps; ++i) {
      const double want = i < (steps == 1 ? 1 : steps / 2) ? start + step * static_cast<double>(i) : end - step * static_cast<double>(steps - 1 - i);
      const Shape idx = out.desc().shape.size() == 1 ? Shape{i} : Shape{0, i};
      // Integer outputs truncate the exact value; a value within rounding of an integer may land on
      // either side.
      const bool near_int = std::fabs(want - std::round(want)) < 1e-9;
      const bool ok = !is_floating(t) && near_int ? std::llabs(out.at(idx).i - std::llround(want)) <= 1 : close(t, want, out.at(idx));
      EXPECT_TRUE(ok) << r << ": out[" << i << "] is " << num_str(out.at(idx)) << ", expected " << want;
      if (i == 0 && steps > 0) {
        EXPECT_TRUE(close(t, start, out.at(idx))) << r << ": out[0] is " << num_str(out.at(idx)) << ", expected start";
      }
      if (i == steps - 1 && steps > 1) {
        EXPECT_TRUE(close(t, end, out.at(idx))) << r << ": the last value must be end";
      }
    }
    if (HasFailure()) return;
  }
}

TEST(Linspace, BadArguments) {
  Tensor out(TensorDesc(ACL_FLOAT, {4})), out_i64(TensorDesc(ACL_INT64, {4}));
  Scalar a(ScalarDesc(ACL_FLOAT, 0.0)), b(ScalarDesc(ACL_FLOAT, 1.0));
  expect_phase1_error("negative steps", ACLNN_ERR_PARAM_INVALID, "steps is -1",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnLinspaceGetWorkspaceSize(a.get(), b.get(), -1, out.get(), w, x); });
  expect_phase1_error("count", ACLNN_ERR_PARAM_INVALID, "has 4 elements, expected steps = 5",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnLinspaceGetWorkspaceSize(a.get(), b.get(), 5, out.get(), w, x); });
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "out dtype int64",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnLinspaceGetWorkspaceSize(a.get(), b.get(), 4, out_i64.get(), w, x); });
  expect_phase1_error("null end", ACLNN_ERR_PARAM_NULLPTR, "end",
                      [&](uint64_t* w, aclOpExecutor** x) { return aclnnLinspaceGetWorkspaceSize(a.get(), nullptr, 4, out.get(), w, x); });
}

TEST(Eye, ShapesAndDtypes) {
  Rng rng(203);
  const std::vector<aclDataType> types = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_INT64, ACL_BOOL, ACL_BF16};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const int64_t n = static_cast<int64_t>(rng() % 6), m = static_cast<int64_t>(rng() % 6);
    Tensor out(random_view(t, {n, m}, rng));
    fill_bytes(out, rng);
    const auto before = out.host();
    const std::string r = "Eye n=" + std::to_string(n) + " m=" + std::to_string(m) + " out=" + out.desc().str();
    if (!run_ok(r, [&](uint64_t* w, aclOpExecutor** x) { return aclnnEyeGetWorkspaceSize(n, m, out.get(), w, x); }, aclnnEye)) return;
    uint8_t one[16] = {};
    store(t, one, Num::integer(1));
    expect_moved(r, out, before, [&](const Shape& i) { return i[0] == i[1] ? Source{nullptr, {}, one} : Source{}; });
    if (HasFailure()) return;
  }
}

TEST(Eye, BadArguments) {
  Tensor out(TensorDesc(ACL_FLOAT, {2, 3})), v(TensorDesc(ACL_FLOAT, {3})), d(TensorDesc(ACL_DOUBLE, {2, 3}));
  auto eye = [](int64_t n, int64_t m, aclTensor* o) { return [=](uint64_t* w, aclOpExecutor** x) { return aclnnEyeGetWorkspaceSize(n, m, o, w, x); }; };
  expect_phase1_error("negative", ACLNN_ERR_PARAM_INVALID, "n is -1", eye(-1, 3, out.get()));
  expect_phase1_error("shape", ACLNN_ERR_PARAM_INVALID, "out has shape [2, 3], expected [n, m] [3, 2]", eye(3, 2, out.get()));
  expect_phase1_error("rank", ACLNN_ERR_PARAM_INVALID, "out has 1 dims", eye(3, 3, v.get()));
  expect_phase1_error("dtype", ACLNN_ERR_PARAM_INVALID, "out dtype float64", eye(2, 3, d.get()));
  expect_phase1_error("null", ACLNN_ERR_PARAM_NULLPTR, "out", eye(2, 3, nullptr));
}

}  // namespace
