// Softmax, LogSoftmax, SoftmaxBackward and LogSoftmaxBackward through the public C API.
// Reference: straightforward double-precision loops over the host copies, per line along dim; each
// element also gets an error scale (the magnitudes its value is formed from), and the op's result
// must be within a few units of the coarsest precision involved times that scale. Results that are
// NaN or infinite in the reference must be exactly that.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "norm_test_util.h"

namespace {

using namespace normtest;

enum class Kind { kSoftmax, kLogSoftmax, kSoftmaxGrad, kLogSoftmaxGrad };
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kSoftmax: return "Softmax";
    case Kind::kLogSoftmax: return "LogSoftmax";
    case Kind::kSoftmaxGrad: return "SoftmaxBackward";
    default: return "LogSoftmaxBackward";
  }
}
bool is_backward(Kind k) { return k == Kind::kSoftmaxGrad || k == Kind::kLogSoftmaxGrad; }

struct Case {
  Kind kind;
  TensorDesc x, y, out;  // x: self or gradOutput; y: output (backward only)
  int64_t dim;
  std::string str() const {
    std::string r = std::string(kind_name(kind)) + (is_backward(kind) ? " gradOutput=" : " self=") + x.str();
    if (is_backward(kind)) r += " output=" + y.str();
    return r + " dim=" + std::to_string(dim) + " out=" + out.str();
  }
};

aclnnStatus call(Kind k, aclTensor* x, aclTensor* y, int64_t dim, aclTensor* out) {
  return run_two_phase(
      [&](uint64_t* w, aclOpExecutor** e) {
        switch (k) {
          case Kind::kSoftmax: return aclnnSoftmaxGetWorkspaceSize(x, dim, out, w, e);
          case Kind::kLogSoftmax: return aclnnLogSoftmaxGetWorkspaceSize(x, dim, out, w, e);
          case Kind::kSoftmaxGrad: return aclnnSoftmaxBackwardGetWorkspaceSize(x, y, dim, out, w, e);
          default: return aclnnLogSoftmaxBackwardGetWorkspaceSize(x, y, dim, out, w, e);
        }
      },
      k == Kind::kSoftmax       ? aclnnSoftmax
      : k == Kind::kLogSoftmax  ? aclnnLogSoftmax
      : k == Kind::kSoftmaxGrad ? aclnnSoftmaxBackward
                                : aclnnLogSoftmaxBackward);
}

// Reference over dense row-major values: res and err scale per element.
void reference(Kind k, const Shape& shape, int64_t dim, const std::vector<double>& x, const std::vector<double>& y,
               std::vector<double>* res, std::vector<double>* scale, std::vector<double>* peak = nullptr,
               std::vector<double>* quanta = nullptr) {
  std::vector<double> peak_unused, quanta_unused;
  if (!peak) peak = &peak_unused;
  if (!quanta) quanta = &quanta_unused;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t d = rank == 0 ? 0 : (dim + rank) % rank;
  int64_t outer = 1, n = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) (i < d ? outer : i == d ? n : inner) *= shape[static_cast<size_t>(i)];
  res->assign(x.size(), 0);
  scale->assign(x.size(), 0);
  peak->assign(x.size(), 0);    // largest intermediate magnitude
  quanta->assign(x.size(), 2);  // roundings near zero (absolute, one subnormal quantum each)
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      auto at = [&](int64_t r) { return static_cast<size_t>((o * n + r) * inner + j); };
      if (k == Kind::kSoftmax || k == Kind::kLogSoftmax) {
        double m = -HUGE_VAL;
        for (int64_t r = 0; r < n; ++r)
          if (x[at(r)] > m) m = x[at(r)];
        double s = 0;
        for (int64_t r = 0; r < n; ++r) s += std::exp(x[at(r)] - m);
        for (int64_t r = 0; r < n; ++r) {
          const double v = x[at(r)];
          if (k == Kind::kSoftmax) {
            (*res)[at(r)] = std::exp(v - m) / s;
            (*scale)[at(r)] = std::fabs((*res)[at(r)]) * (1 + std::fabs(v - m));
            (*peak)[at(r)] = std::fabs(v - m);
          } else {
            (*res)[at(r)] = v - m - std::log(s);
            (*scale)[at(r)] = std::fabs(v) + std::fabs(m) + std::fabs(std::log(s)) + 1;
            (*peak)[at(r)] = (*scale)[at(r)];
          }
        }
      } else if (k == Kind::kSoftmaxGrad) {
        double dsum = 0, dabs = 0;
        for (int64_t r = 0; r < n; ++r) {
          dsum += x[at(r)] * y[at(r)];
          dabs += std::fabs(x[at(r)] * y[at(r)]);
        }
        for (int64_t r = 0; r < n; ++r) {
          (*res)[at(r)] = y[at(r)] * (x[at(r)] - dsum);
          (*scale)[at(r)] = std::fabs(y[at(r)]) * (std::fabs(x[at(r)]) + dabs);
          (*peak)[at(r)] = std::fmax((*scale)[at(r)], std::fabs(x[at(r)]) + dabs);
          (*quanta)[at(r)] = 2 + static_cast<double>(n) * std::fabs(y[at(r)]);
        }
      } else {
        double gsum = 0, gabs = 0;
        for (int64_t r = 0; r < n; ++r) {
          gsum += x[at(r)];
          gabs += std::fabs(x[at(r)]);
        }
        for (int64_t r = 0; r < n; ++r) {
          (*res)[at(r)] = x[at(r)] - std::exp(y[at(r)]) * gsum;
          const double ey = std::exp(y[at(r)]);  // exp's relative error grows with |y|; exp(-inf) is exact
          (*scale)[at(r)] = std::fabs(x[at(r)]) + ey * gabs * (std::isinf(y[at(r)]) ? 1 : 1 + std::fabs(y[at(r)]));
          (*peak)[at(r)] = std::fmax(std::fmax((*scale)[at(r)], gabs), ey);
        }
      }
    }
}

// Fills the inputs with values of the given ranges; specials: the share of special values instead.
void check_case(Rng& rng, const Case& c, double special = 0) {
  const std::string r = c.str();
  Tensor x(c.x), out(c.out);
  const bool bw = is_backward(c.kind);
  Tensor y(bw ? c.y : TensorDesc(c.x.dtype, {}));
  if (special > 0) {
    FillOptions o;
    o.special = special;
    o.small_int = 0.5;
    x.fill_random(rng, o);
    if (bw) y.fill_random(rng, o);
  } else {
    fill_uniform(x, rng, c.kind == Kind::kSoftmax || c.kind == Kind::kLogSoftmax ? -12 : -4, 12);
    if (c.kind == Kind::kSoftmaxGrad) fill_uniform(y, rng, 0, 1);
    if (c.kind == Kind::kLogSoftmaxGrad) fill_uniform(y, rng, -8, 0);
  }
  fill_uniform(out, rng, -1, 1);
  const std::vector<uint8_t> before = out.host();
  ASSERT_EQ(call(c.kind, x.get(), bw ? y.get() : nullptr, c.dim, out.get()), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  out.download();
  std::vector<double> ref, scale, peak, quanta;
  reference(c.kind, c.x.shape, c.dim, dense_values(x), bw ? dense_values(y) : std::vector<double>{}, &ref, &scale,
            &peak, &quanta);
  // The result is formed in x's dtype and then cast to out's.
  const double eps = std::max(eps_of(c.x.dtype), eps_of(c.out.dtype));
  const double k = (c.x.dtype == ACL_FLOAT16 || c.x.dtype == ACL_BF16 || c.out.dtype == ACL_FLOAT16 ||
                    c.out.dtype == ACL_BF16)
                       ? 2.0
                       : 64.0;
  // Results beyond the range of x's or out's dtype may overflow to infinity.
  const double max_finite = std::min(max_of(c.x.dtype), max_of(c.out.dtype));
  const double compute_max = c.x.dtype == ACL_DOUBLE ? max_of(ACL_DOUBLE) : max_of(ACL_FLOAT);
  size_t i = 0;
  int bad = 0;
  for_each_index(c.out.shape, [&](const Shape& idx) {
    const double want = ref[i], got = out.at(idx).f;
    const double tol = k * eps * scale[i] + quanta[i] * std::max(tiny_of(c.x.dtype), tiny_of(c.out.dtype));
    // Intermediates beyond the compute dtype's range may overflow to inf (and then NaN).
    const bool may_overflow = peak[i] >= compute_max;
    ++i;
    bool ok;
    if (may_overflow && (!std::isfinite(got) || !std::isfinite(want))) return;  // either side may overflow
    if (std::isnan(want) || std::isinf(want)) ok = std::isnan(want) ? std::isnan(got) : got == want;
    else if (!std::isfinite(tol)) ok = std::fabs(got - want) <= k * eps * std::fabs(want);  // the scale overflowed
    else ok = std::fabs(got - want) <= tol || (std::isinf(got) && std::signbit(got) == std::signbit(want) &&
                                                 std::fabs(want) * (1 + k * eps) >= max_finite);
    if (!ok && bad++ < 3)
      ADD_FAILURE() << r << ": element " << shape_str(idx) << " is " << got << ", expected " << want << " (tolerance "
                    << tol << ")";
  });
  const std::string outside = writes_outside_view(out, before);
  EXPECT_TRUE(outside.empty()) << r << ": wrote outside the out view:" << outside;
}

// A random shape of rank 0..5 (sizes 1..5, sometimes one longer dim), a dim, strided views.
Case random_case(Rng& rng, Kind kind, aclDataType t, aclDataType out_t) {
  const int rank = static_cast<int>(rng() % 6);
  Shape shape(static_cast<size_t>(rank));
  for (auto& s : shape) s = static_cast<int64_t>(rng() % 5) + 1;
  if (rank > 0 && rng() % 3 == 0) shape[rng() % static_cast<size_t>(rank)] = static_cast<int64_t>(rng() % 90) + 20;
  const int64_t r = std::max(rank, 1);
  const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * r)) - r;
  auto view = [&](aclDataType dt) {
    if (rank == 0 || rng() % 3 != 0) return TensorDesc(dt, shape);
    Shape st = contiguous_strides(shape);
    if (rank >= 2 && rng() % 2) {  // a transposed layout of the last two dims
      Shape sw = shape;
      std::swap(sw[sw.size() - 1], sw[sw.size() - 2]);
      st = contiguous_strides(sw);
      std::swap(st[st.size() - 1], st[st.size() - 2]);
      return TensorDesc(dt, shape, st, 1, -1);
    }
    for (auto& x : st) x *= 2;
    return TensorDesc(dt, shape, st, 3);
  };
  Case c{kind, view(t), is_backward(kind) ? view(t) : TensorDesc(), view(out_t), dim};
  return c;
}

const std::vector<aclDataType> kFloatTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

void sweep(Kind kind, uint64_t s) {
  Rng rng(seed(s));
  for (int iter = 0; iter < 160; ++iter) {
    const aclDataType t = kFloatTypes[static_cast<size_t>(iter) % 4];
    const aclDataType out_t = iter % 5 == 4 ? kFloatTypes[rng() % 4] : t;
    check_case(rng, random_case(rng, kind, t, out_t));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(Softmax, RandomShapesDimsStridesDtypes) { sweep(Kind::kSoftmax, 1); }
TEST(LogSoftmax, RandomShapesDimsStridesDtypes) { sweep(Kind::kLogSoftmax, 2); }
TEST(SoftmaxBackward, RandomShapesDimsStridesDtypes) { sweep(Kind::kSoftmaxGrad, 3); }
TEST(LogSoftmaxBackward, RandomShapesDimsStridesDtypes) { sweep(Kind::kLogSoftmaxGrad, 4); }

TEST(Softmax, SpecialValues) {
  Rng rng(seed(5));
  for (Kind k : {Kind::kSoftmax, Kind::kLogSoftmax, Kind::kSoftmaxGrad, Kind::kLogSoftmaxGrad})
    for (aclDataType t : kFloatTypes)
      for (int iter = 0; iter < 12; ++iter) {
        Case c = random_case(rng, k, t, t);
        check_case(rng, c, 0.25);
        if (HasFailure()) return;
      }
}

TEST(Softmax, LargeInputsNeedTheMaxShift) {
  Rng rng(seed(6));
  Tensor x(TensorDesc(ACL_FLOAT, {3, 50})), out(TensorDesc(ACL_FLOAT, {3, 50}));
  fill_uniform(x, rng, 1000, 1010);  // exp(x) alone overflows float32
  ASSERT_EQ(call(Kind::kSoftmax, x.get(), nullptr, -1, out.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  for (int64_t i = 0; i < 3; ++i) {
    double s = 0;
    for (int64_t j = 0; j < 50; ++j) {
      EXPECT_TRUE(std::isfinite(out.at({i, j}).f));
      s += out.at({i, j}).f;
    }
    EXPECT_NEAR(s, 1.0, 1e-5);
  }
}

TEST(Softmax, LargeRowsAndColumnsUseThreads) {
  Rng rng(seed(7));
  for (Kind k : {Kind::kSoftmax, Kind::kLogSoftmax, Kind::kSoftmaxGrad, Kind::kLogSoftmaxGrad}) {
    check_case(rng, Case{k, TensorDesc(ACL_FLOAT, {80, 600}), TensorDesc(ACL_FLOAT, {80, 600}),
                         TensorDesc(ACL_FLOAT, {80, 600}), -1});
    check_case(rng, Case{k, TensorDesc(ACL_FLOAT, {3, 200, 90}), TensorDesc(ACL_FLOAT, {3, 200, 90}),
                         TensorDesc(ACL_FLOAT, {3, 200, 90}), 1});
  }
}

TEST(Softmax, ZeroDimAndEmpty) {
  Rng rng(seed(8));
  for (Kind k : {Kind::kSoftmax, Kind::kLogSoftmax, Kind::kSoftmaxGrad, Kind::kLogSoftmaxGrad}) {
    check_case(rng, Case{k, TensorDesc(ACL_FLOAT, {}), TensorDesc(ACL_FLOAT, {}), TensorDesc(ACL_FLOAT, {}), -1});
    check_case(rng, Case{k, TensorDesc(ACL_FLOAT, {}), TensorDesc(ACL_FLOAT, {}), TensorDesc(ACL_FLOAT, {}), 0});
    for (const Shape& s : {Shape{0}, Shape{3, 0}, Shape{0, 4}, Shape{2, 0, 3}}) {
      const std::string r = std::string(kind_name(k)) + " empty " + shape_str(s);
      Tensor x(TensorDesc(ACL_FLOAT, s)), y(TensorDesc(ACL_FLOAT, s)), out(TensorDesc(ACL_FLOAT, s));
      uint64_t ws = 1;
      aclOpExecutor* ex = nullptr;
      aclnnStatus st = k == Kind::kSoftmax ? aclnnSoftmaxGetWorkspaceSize(x.get(), -1, out.get(), &ws, &ex)
                       : k == Kind::kLogSoftmax
                           ? aclnnLogSoftmaxGetWorkspaceSize(x.get(), 0, out.get(), &ws, &ex)
                       : k == Kind::kSoftmaxGrad
                           ? aclnnSoftmaxBackwardGetWorkspaceSize(x.get(), y.get(), -1, out.get(), &ws, &ex)
                           : aclnnLogSoftmaxBackwardGetWorkspaceSize(x.get(), y.get(), 0, out.get(), &ws, &ex);
      ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(ws, 0u) << r;
      const Phase2Fn p2 = k == Kind::kSoftmax       ? aclnnSoftmax
                          : k == Kind::kLogSoftmax  ? aclnnLogSoftmax
                          : k == Kind::kSoftmaxGrad ? aclnnSoftmaxBackward
                                                    : aclnnLogSoftmaxBackward;
      EXPECT_EQ(p2(nullptr, 0, ex, stream()), ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
    }
  }
  // A 0-d softmax is 1, a 0-d log-softmax 0.
  Tensor x(TensorDesc(ACL_FLOAT, {})), out(TensorDesc(ACL_FLOAT, {}));
  x.fill(Num::real(3.5));
  ASSERT_EQ(call(Kind::kSoftmax, x.get(), nullptr, 0, out.get()), ACL_SUCCESS);
  out.download();
  EXPECT_EQ(out.at({}).f, 1.0);
}

TEST(Softmax, InPlaceOutIsSelf) {
  Rng rng(seed(9));
  for (Kind k : {Kind::kSoftmax, Kind::kLogSoftmax}) {
    for (int64_t dim : {-1, 0}) {
      Tensor x(TensorDesc(ACL_FLOAT, {5, 40}));
      fill_uniform(x, rng, -5, 5);
      std::vector<double> ref, scale;
      reference(k, {5, 40}, dim, dense_values(x), {}, &ref, &scale);
      ASSERT_EQ(call(k, x.get(), nullptr, dim, x.get()), ACL_SUCCESS) << aclGetRecentErrMsg();
      x.download();
      size_t i = 0;
      for_each_index({5, 40}, [&](const Shape& idx) {
        EXPECT_NEAR(x.at(idx).f, ref[i], 1e-5 * (1 + std::fabs(ref[i]))) << kind_name(k) << " in place dim " << dim;
        ++i;
      });
    }
  }
}

TEST(Softmax, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2, 3}));
  Tensor xi(TensorDesc(ACL_INT32, {2, 3})), outi(TensorDesc(ACL_INT32, {2, 3}));
  Tensor out_shape(TensorDesc(ACL_FLOAT, {3, 2})), y16(TensorDesc(ACL_FLOAT16, {2, 3}));
  Tensor big(TensorDesc(ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 1}));
  auto sm = [](aclTensor* s, int64_t d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnSoftmaxGetWorkspaceSize(s, d, o, w, e); };
  };
  auto lsm = [](aclTensor* s, int64_t d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnLogSoftmaxGetWorkspaceSize(s, d, o, w, e); };
  };
  auto smb = [](aclTensor* g, aclTensor* y, int64_t d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnSoftmaxBackwardGetWorkspaceSize(g, y, d, o, w, e); };
  };
  auto lsmb = [](aclTensor* g, aclTensor* y, int64_t d, aclTensor* o) {
    return [=](uint64_t* w, aclOpExecutor** e) { return aclnnLogSoftmaxBackwardGetWorkspaceSize(g, y, d, o, w, e); };
  };
  expect_phase1_error("Softmax null self", ACLNN_ERR_PARAM_NULLPTR, "self", sm(nullptr, 0, out.get()));
  expect_phase1_error("Softmax null out", ACLNN_ERR_PARAM_NULLPTR, "out", sm(x.get(), 0, nullptr));
  expect_phase1_error("Softmax int self", ACLNN_ERR_PARAM_INVALID, "self dtype int32", sm(xi.get(), 0, out.get()));
  expect_phase1_error("Softmax int out", ACLNN_ERR_PARAM_INVALID, "out dtype int32", sm(x.get(), 0, outi.get()));
  expect_phase1_error("Softmax dim 2", ACLNN_ERR_PARAM_INVALID, "dim is 2", sm(x.get(), 2, out.get()));
  expect_phase1_error("Softmax dim -3", ACLNN_ERR_PARAM_INVALID, "[-2, 1]", sm(x.get(), -3, out.get()));
  expect_phase1_error("Softmax out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]", sm(x.get(), 0, out_shape.get()));
  expect_phase1_error("Softmax rank 9", ACLNN_ERR_PARAM_INVALID, "self has 9 dims", sm(big.get(), 0, big.get()));
  expect_phase1_error("LogSoftmax null self", ACLNN_ERR_PARAM_NULLPTR, "self", lsm(nullptr, 0, out.get()));
  expect_phase1_error("LogSoftmax dim", ACLNN_ERR_PARAM_INVALID, "dim is -3", lsm(x.get(), -3, out.get()));
  expect_phase1_error("LogSoftmax int self", ACLNN_ERR_PARAM_INVALID, "self dtype int32", lsm(xi.get(), 0, out.get()));
  expect_phase1_error("SoftmaxBackward null output", ACLNN_ERR_PARAM_NULLPTR, "output", smb(x.get(), nullptr, 0, out.get()));
  expect_phase1_error("SoftmaxBackward null grad", ACLNN_ERR_PARAM_NULLPTR, "gradOutput", smb(nullptr, x.get(), 0, out.get()));
  expect_phase1_error("SoftmaxBackward dtype mismatch", ACLNN_ERR_PARAM_INVALID, "dtype of gradOutput",
                      smb(x.get(), y16.get(), 0, out.get()));
  expect_phase1_error("SoftmaxBackward shape mismatch", ACLNN_ERR_PARAM_INVALID, "output has shape",
                      smb(x.get(), out_shape.get(), 0, out.get()));
  expect_phase1_error("SoftmaxBackward out shape", ACLNN_ERR_PARAM_INVALID, "out has shape",
                      smb(x.get(), x.get(), 0, out_shape.get()));
  expect_phase1_error("LogSoftmaxBackward int grad", ACLNN_ERR_PARAM_INVALID, "gradOutput dtype int32",
                      lsmb(xi.get(), xi.get(), 0, out.get()));
  expect_phase1_error("LogSoftmaxBackward dim", ACLNN_ERR_PARAM_INVALID, "dim is 7", lsmb(x.get(), x.get(), 7, out.get()));
}

}  // namespace

namespace {

// Outputs of 8 MiB and more take the streaming-store path: checked with plain loops over the
// raw host arrays (the per-element helpers are too slow for 4 Mi elements under the sanitizers).
TEST(Softmax, LargeOutputsStreamed) {
  constexpr int64_t R = 512, C = 4096;
  Rng rng(seed(10));
  Tensor x(TensorDesc(ACL_FLOAT, {R, C})), y(TensorDesc(ACL_FLOAT, {R, C})), out(TensorDesc(ACL_FLOAT, {R, C}));
  fill_uniform_f32(x, rng, -6, 6);
  fill_uniform_f32(y, rng, 0, 1);
  const float* yvp = reinterpret_cast<const float*>(y.host().data());
  const float* xv = reinterpret_cast<const float*>(x.host().data());
  for (Kind k : {Kind::kSoftmax, Kind::kLogSoftmax, Kind::kSoftmaxGrad, Kind::kLogSoftmaxGrad}) {
    ASSERT_EQ(call(k, x.get(), y.get(), -1, out.get()), ACL_SUCCESS) << kind_name(k) << ": " << aclGetRecentErrMsg();
    out.download();
    const float* o = reinterpret_cast<const float*>(out.host().data());
    int bad = 0;
    for (int64_t r = 0; r < R && bad < 3; r += (r % 64 == 63 ? 1 : 7)) {  // a sample of the rows
      const float* xr = xv + r * C;
      const float* yr = yvp + r * C;
      double m = -HUGE_VAL, s = 0, d = 0, g = 0, dabs = 0, gabs = 0;
      for (int64_t j = 0; j < C; ++j) m = std::max(m, static_cast<double>(xr[j]));
      for (int64_t j = 0; j < C; ++j) {
        s += std::exp(xr[j] - m);
        d += static_cast<double>(xr[j]) * yr[j];
        g += xr[j];
        dabs += std::fabs(static_cast<double>(xr[j]) * yr[j]);
        gabs += std::fabs(xr[j]);
      }
      for (int64_t j = 0; j < C; ++j) {
        double want, scale;  // scale: the magnitudes the value is formed from
        switch (k) {
          case Kind::kSoftmax: want = std::exp(xr[j] - m) / s, scale = want * (1 + std::fabs(xr[j] - m)); break;
          case Kind::kLogSoftmax: want = xr[j] - m - std::log(s), scale = std::fabs(xr[j]) + std::fabs(m) + 1; break;
          case Kind::kSoftmaxGrad: want = yr[j] * (xr[j] - d), scale = yr[j] * (std::fabs(xr[j]) + dabs); break;
          default: want = xr[j] - std::exp(yr[j]) * g, scale = std::fabs(xr[j]) + std::exp(yr[j]) * gabs * 2; break;
        }
        const double got = o[r * C + j];
        if (!(std::fabs(got - want) <= 64 * std::ldexp(1.0, -23) * scale) && bad++ < 3)
          ADD_FAILURE() << kind_name(k) << " float32[512,4096] dim=-1: element [" << r << "," << j << "] is " << got
                        << ", expected " << want;
      }
    }
  }
}

}  // namespace
