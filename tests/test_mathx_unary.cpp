// The mathx family's unary ops through the public C API: Lgamma, Digamma, Sinc, InplaceSinc,
// Signbit, NanToNum, InplaceNanToNum, AngleV2 (real and complex64 inputs) and Real.
//
// References are written here: lgamma with glibc's long double lgammal; digamma with its own
// long double series (recurrence to x >= 30, eight asymptotic terms, reflection below 0); sinc as
// sin(p)/p in long double of p = pi * x rounded to the compute dtype (as the op computes the
// product); the rest exactly from their definitions. Floating results are compared within a few
// ulps of the coarser of compute and out dtype, or a small absolute error where the function has
// a root; NaN, infinities and zero signs exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_angle_v2.h"
#include "aclnnop/aclnn_digamma.h"
#include "aclnnop/aclnn_lgamma.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_real.h"
#include "aclnnop/aclnn_signbit.h"
#include "aclnnop/aclnn_sinc.h"
#include "test_mathx_util.h"

namespace {

using namespace mathx;

const std::vector<aclDataType> kAll = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT32,
                                       ACL_INT64, ACL_INT16,   ACL_INT8,  ACL_UINT8,  ACL_BOOL};

struct UnCase {
  std::string op;
  TensorDesc self, out;  // out unused in place
  bool inplace = false;
  std::string attrs;
  std::string str() const {
    std::string r = op + (inplace ? " selfRef=" : " self=") + self.str();
    if (!inplace) r += " out=" + out.str();
    if (!attrs.empty()) r += " " + attrs;
    return r;
  }
};

using UnP1 = std::function<aclnnStatus(aclTensor* self, aclTensor* out, uint64_t*, aclOpExecutor**)>;
using UnRef = std::function<void(Mismatches&, const Shape& idx, const Num& a, const Num& actual)>;

void run_unary(Rng& rng, const UnCase& c, const UnP1& p1, Phase2Fn p2, const UnRef& ref, const FillOptions& fo = {}) {
  Tensor self(c.self);
  std::unique_ptr<Tensor> out_t = c.inplace ? nullptr : std::make_unique<Tensor>(c.out);
  self.fill_random(rng, fo);
  if (out_t) out_t->fill_random(rng);
  Tensor& out = out_t ? *out_t : self;
  const std::vector<uint8_t> self_before = self.host(), out_before = out.host();
  const aclnnStatus st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return p1(self.get(), out.get(), w, e); }, p2);
  ASSERT_EQ(st, ACL_SUCCESS) << c.str() << ": " << aclGetRecentErrMsg();
  out.download();
  Mismatches m(c.str());
  for_each_index(c.self.shape, [&](const Shape& idx) { ref(m, idx, self.at(self_before, idx), out.at(idx)); });
  const std::string outside = writes_outside_view(out, out_before);
  EXPECT_TRUE(outside.empty()) << c.str() << ": wrote outside the out view:" << outside;
}

UnCase random_case(Rng& rng, const char* op, aclDataType self, aclDataType out, bool inplace) {
  UnCase c;
  c.op = op;
  const Shape s = random_shape(rng, 0, 4, true);
  c.self = random_view(rng, self, s);
  c.out = random_view(rng, out, s);
  c.inplace = inplace;
  return c;
}

void expect_error(const std::string& repro, const UnCase& c, const UnP1& p1, aclnnStatus code, const char* mention) {
  Tensor self(c.self), out(c.out);
  expect_phase1_error(repro, code, mention,
                      [&](uint64_t* w, aclOpExecutor** e) { return p1(self.get(), c.inplace ? self.get() : out.get(), w, e); });
}

// ---- Lgamma / Digamma -----------------------------------------------------------------------------

long double digamma_ref(long double x) {
  if (x == 0) return std::copysign(HUGE_VALL, -x);
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x == std::floor(x)) return NAN;
    const long double r = x - std::trunc(x);  // exact
    return digamma_ref(1 - x) - 3.14159265358979323846264338327950288L / std::tan(3.14159265358979323846264338327950288L * r);
  }
  if (std::isinf(x)) return x;
  long double acc = 0;
  while (x < 30) {
    acc -= 1 / x;
    x += 1;
  }
  // Bernoulli numbers B_2k / (2k) for k = 1..8.
  static const long double c[8] = {1.0L / 12,       -1.0L / 120,     1.0L / 252,       -1.0L / 240,
                                   1.0L / 132,      -691.0L / 32760, 1.0L / 12,        -3617.0L / 8160};
  long double z = 1 / (x * x), p = z, tail = 0;
  for (long double ck : c) {
    tail += ck * p;
    p *= z;
  }
  return acc + std::log(x) - 1 / (2 * x) - tail;
}

TEST(MathxGamma, LgammaAndDigamma) {
  Rng rng(21);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
  for (int iter = 0; iter < 90; ++iter) {
    const bool lg = iter % 2 == 0;
    const aclDataType t = pick(rng, types);
    UnCase c = random_case(rng, lg ? "Lgamma" : "Digamma", t, t, false);
    const UnP1 p1 = [lg](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return lg ? aclnnLgammaGetWorkspaceSize(s, o, w, e) : aclnnDigammaGetWorkspaceSize(s, o, w, e);
    };
    // Absolute tolerances cover the roots of the functions, where relative error is unbounded.
    const Tol tol = t == ACL_DOUBLE ? Tol{16, 1e-13} : t == ACL_FLOAT ? Tol{8, 2e-6} : Tol{1, 0};
    run_unary(rng, c, p1, lg ? aclnnLgamma : aclnnDigamma, [=](Mismatches& m, const Shape& idx, const Num& a, const Num& actual) {
      const long double x = a.f;
      const long double e = lg ? std::lgamma(x) : digamma_ref(x);
      expect_float(m, idx, static_cast<double>(e), t, t, actual, tol);
    });
  }
}

TEST(MathxGamma, SpecialValues) {
  // x: lgamma(x), digamma(x)
  const double x[] = {0.0, -0.0, 1.0, 2.0, -1.0, -2.5, HUGE_VAL, -HUGE_VAL, NAN, 0.5};
  const double lg[] = {HUGE_VAL, HUGE_VAL, 0.0, 0.0, HUGE_VAL, -0.05624371649767405, HUGE_VAL, HUGE_VAL, NAN,
                       0.5723649429247001};
  const double dg[] = {-HUGE_VAL, HUGE_VAL, -0.5772156649015329, 0.42278433509846713, NAN, 1.1031566406452432,
                       HUGE_VAL, NAN, NAN, -1.9635100260214235};
  const int n = 10;
  for (int which = 0; which < 2; ++which) {
    Tensor self(TensorDesc(ACL_DOUBLE, {n})), out(TensorDesc(ACL_DOUBLE, {n}));
    for (int i = 0; i < n; ++i) self.set({i}, Num::real(x[i]));
    self.upload();
    ASSERT_EQ(run_two_phase(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return which ? aclnnDigammaGetWorkspaceSize(self.get(), out.get(), w, e)
                                 : aclnnLgammaGetWorkspaceSize(self.get(), out.get(), w, e);
                  },
                  which ? aclnnDigamma : aclnnLgamma),
              ACL_SUCCESS);
    out.download();
    Mismatches m(which ? "Digamma special values" : "Lgamma special values");
    for (int i = 0; i < n; ++i)
      expect_float(m, {i}, which ? dg[i] : lg[i], ACL_DOUBLE, ACL_DOUBLE, out.at({i}), Tol{8, 1e-15});
  }
}

TEST(MathxGamma, BadArguments) {
  const UnP1 lg = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnLgammaGetWorkspaceSize(s, o, w, e); };
  const UnP1 dg = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnDigammaGetWorkspaceSize(s, o, w, e); };
  UnCase c;
  c.op = "Lgamma";
  c.self = TensorDesc(ACL_BF16, {2});
  c.out = TensorDesc(ACL_BF16, {2});
  expect_error(c.str(), c, lg, ACLNN_ERR_PARAM_INVALID, "self");
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_DOUBLE, {2});
  expect_error(c.str(), c, lg, ACLNN_ERR_PARAM_INVALID, "out");
  c.op = "Digamma";
  c.self = TensorDesc(ACL_INT32, {2});
  c.out = TensorDesc(ACL_INT32, {2});
  expect_error(c.str(), c, dg, ACLNN_ERR_PARAM_INVALID, "self");
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_FLOAT, {3});
  expect_error(c.str(), c, dg, ACLNN_ERR_PARAM_INVALID, "out");
  c.self = TensorDesc(ACL_FLOAT, Shape(9, 1));
  c.out = TensorDesc(ACL_FLOAT, Shape(9, 1));
  expect_error(c.str(), c, dg, ACLNN_ERR_PARAM_INVALID, "self");
  Tensor t(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("Lgamma self=null", ACLNN_ERR_PARAM_NULLPTR, "self",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnLgammaGetWorkspaceSize(nullptr, t.get(), w, e); });
  expect_phase1_error("Digamma out=null", ACLNN_ERR_PARAM_NULLPTR, "out",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnDigammaGetWorkspaceSize(t.get(), nullptr, w, e); });
}

// ---- Sinc -----------------------------------------------------------------------------------------

TEST(MathxSinc, OutOfPlaceAndInPlace) {
  Rng rng(22);
  const std::vector<aclDataType> floats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  for (int iter = 0; iter < 90; ++iter) {
    const bool inplace = iter % 3 == 2;
    const aclDataType st = inplace ? pick(rng, floats) : pick(rng, kAll);
    const aclDataType ot = inplace ? st : pick(rng, floats);
    const aclDataType compute = is_floating(st) ? st : ACL_FLOAT;
    UnCase c = random_case(rng, inplace ? "InplaceSinc" : "Sinc", st, ot, inplace);
    const UnP1 p1 = [inplace](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return inplace ? aclnnInplaceSincGetWorkspaceSize(s, w, e) : aclnnSincGetWorkspaceSize(s, o, w, e);
    };
    // The product pi * x is rounded to the compute type (float32 arithmetic for 16-bit floats).
    const aclDataType arith = compute == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
    const double pi_c = arith == ACL_DOUBLE ? M_PI : static_cast<double>(static_cast<float>(M_PI));
    run_unary(rng, c, p1, inplace ? aclnnInplaceSinc : aclnnSinc,
              [=](Mismatches& m, const Shape& idx, const Num& a, const Num& actual) {
                const double x = cast(a, compute).as_double();
                double e;
                if (x == 0) {
                  e = 1;
                } else {
                  const long double p = cast(Num::real(pi_c * x), arith).f;
                  e = static_cast<double>(std::sin(p) / p);
                }
                expect_float(m, idx, e, compute, ot, actual, Tol{4, 0});
              });
  }
}

TEST(MathxSinc, BadArguments) {
  const UnP1 p1 = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnSincGetWorkspaceSize(s, o, w, e); };
  const UnP1 ip = [](aclTensor* s, aclTensor*, uint64_t* w, aclOpExecutor** e) { return aclnnInplaceSincGetWorkspaceSize(s, w, e); };
  UnCase c;
  c.op = "Sinc";
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_INT32, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.out = TensorDesc(ACL_FLOAT, {2, 1});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.op = "InplaceSinc";
  c.inplace = true;
  c.self = TensorDesc(ACL_INT32, {2});
  expect_error(c.str(), c, ip, ACLNN_ERR_PARAM_INVALID, "selfRef");
  expect_phase1_error("InplaceSinc selfRef=null", ACLNN_ERR_PARAM_NULLPTR, "selfRef",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceSincGetWorkspaceSize(nullptr, w, e); });
}

// ---- Signbit --------------------------------------------------------------------------------------

TEST(MathxSignbit, DtypesAndViews) {
  Rng rng(23);
  for (int iter = 0; iter < 80; ++iter) {
    const aclDataType st = pick(rng, kAll), ot = pick(rng, kAll);
    UnCase c = random_case(rng, "Signbit", st, ot, false);
    run_unary(
        rng, c, [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnSignbitGetWorkspaceSize(s, o, w, e); },
        aclnnSignbit, [=](Mismatches& m, const Shape& idx, const Num& a, const Num& actual) {
          const bool neg = a.is_float ? std::signbit(a.f) : (st != ACL_BOOL && a.i < 0);
          expect_exact(m, idx, ot, Num::integer(neg), actual);
        });
  }
}

TEST(MathxSignbit, BadArguments) {
  const UnP1 p1 = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnSignbitGetWorkspaceSize(s, o, w, e); };
  UnCase c;
  c.op = "Signbit";
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_BOOL, {3});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.self = TensorDesc(ACL_COMPLEX64, {2});
  c.out = TensorDesc(ACL_BOOL, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "self");
  c.self = TensorDesc(ACL_UINT32, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "not supported by pacl");
}

// ---- NanToNum -------------------------------------------------------------------------------------

TEST(MathxNanToNum, OutOfPlaceAndInPlace) {
  Rng rng(24);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
                                          ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
  const float values[] = {0.0f, -1.5f, 3.25f, 1e30f, -1e30f, 65504.0f, -0.0f, 7.0f};
  FillOptions fo;
  fo.special = 0.5;
  for (int iter = 0; iter < 80; ++iter) {
    const bool inplace = iter % 2;
    const aclDataType t = pick(rng, types);
    UnCase c = random_case(rng, inplace ? "InplaceNanToNum" : "NanToNum", t, t, inplace);
    const float nan = values[rng() % 8], posinf = values[rng() % 8], neginf = values[rng() % 8];
    c.attrs = "nan=" + std::to_string(nan) + " posinf=" + std::to_string(posinf) + " neginf=" + std::to_string(neginf);
    const UnP1 p1 = [=](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return inplace ? aclnnInplaceNanToNumGetWorkspaceSize(s, nan, posinf, neginf, w, e)
                     : aclnnNanToNumGetWorkspaceSize(s, nan, posinf, neginf, o, w, e);
    };
    run_unary(
        rng, c, p1, inplace ? aclnnInplaceNanToNum : aclnnNanToNum,
        [=](Mismatches& m, const Shape& idx, const Num& a, const Num& actual) {
          Num e = a;
          if (a.is_float && std::isnan(a.f)) e = Num::real(nan);
          else if (a.is_float && std::isinf(a.f)) e = Num::real(a.f > 0 ? posinf : neginf);
          expect_exact(m, idx, t, e, actual);
        },
        fo);
  }
}

TEST(MathxNanToNum, BadArguments) {
  const UnP1 p1 = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnNanToNumGetWorkspaceSize(s, 0.0f, 1.0f, -1.0f, o, w, e);
  };
  UnCase c;
  c.op = "NanToNum";
  c.self = TensorDesc(ACL_DOUBLE, {2});
  c.out = TensorDesc(ACL_DOUBLE, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "self");
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_FLOAT16, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.out = TensorDesc(ACL_FLOAT, {4});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
}

// ---- AngleV2 / Real: complex inputs ---------------------------------------------------------------

// Random complex values (as float or double parts) in every storage element, then upload.
template <typename F>
void fill_complex(Tensor& t, Rng& rng) {
  F* p = reinterpret_cast<F*>(t.host().data());
  const size_t n = t.host().size() / sizeof(F);
  const F specials[] = {0, static_cast<F>(-0.0), static_cast<F>(HUGE_VAL), static_cast<F>(-HUGE_VAL),
                        static_cast<F>(NAN), 1, -1};
  for (size_t i = 0; i < n; ++i) {
    if (rng() % 8 == 0) p[i] = specials[rng() % 7];
    else p[i] = static_cast<F>(std::uniform_real_distribution<double>(-10, 10)(rng));
  }
  t.upload();
}
template <typename F>
std::complex<F> complex_at(const Tensor& t, const Shape& idx) {
  const F* p = reinterpret_cast<const F*>(t.host().data()) + 2 * t.desc().storage_index(idx);
  return {p[0], p[1]};
}

TEST(MathxAngleV2, RealInputs) {
  Rng rng(25);
  const std::vector<aclDataType> ins = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
                                        ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
  const std::vector<aclDataType> outs = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType st = pick(rng, ins), ot = pick(rng, outs);
    const aclDataType compute = is_floating(st) ? st : ACL_FLOAT;
    UnCase c = random_case(rng, "AngleV2", st, ot, false);
    run_unary(
        rng, c, [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(s, o, w, e); },
        aclnnAngleV2, [=](Mismatches& m, const Shape& idx, const Num& a, const Num& actual) {
          const double x = a.as_double();
          const double e = std::isnan(x) ? x : x < 0 ? M_PI : 0.0;
          expect_float(m, idx, e, compute, ot, actual, Tol{});
        });
  }
}

TEST(MathxAngleV2, Complex64Inputs) {
  Rng rng(26);
  for (int iter = 0; iter < 30; ++iter) {
    const aclDataType ot = pick(rng, std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
    const Shape s = random_shape(rng, 0, 3, true);
    const TensorDesc sd = random_view(rng, ACL_COMPLEX64, s), od = random_view(rng, ot, s);
    const std::string r = "AngleV2 x=" + sd.str() + " out=" + od.str();
    Tensor x(sd), out(od);
    fill_complex<float>(x, rng);
    out.fill_random(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(x.get(), out.get(), w, e); },
                            aclnnAngleV2),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    Mismatches m(r);
    for_each_index(s, [&](const Shape& idx) {
      const std::complex<float> z = complex_at<float>(x, idx);
      expect_float(m, idx, std::atan2(static_cast<double>(z.imag()), static_cast<double>(z.real())), ACL_FLOAT, ot,
                   out.at(idx), Tol{2, 0});
    });
  }
}

TEST(MathxAngleV2, BadArguments) {
  const UnP1 p1 = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(s, o, w, e); };
  UnCase c;
  c.op = "AngleV2";
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_DOUBLE, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.self = TensorDesc(ACL_DOUBLE, {2});
  c.out = TensorDesc(ACL_FLOAT, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "x");
  c.self = TensorDesc(ACL_COMPLEX64, {2});
  c.out = TensorDesc(ACL_FLOAT, {3});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.out = TensorDesc(ACL_INT32, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
}

TEST(MathxReal, FloatAndComplexInputs) {
  Rng rng(27);
  const aclDataType ins[] = {ACL_FLOAT, ACL_FLOAT16, ACL_COMPLEX64, ACL_COMPLEX128};
  for (int iter = 0; iter < 40; ++iter) {
    const aclDataType st = ins[iter % 4];
    const aclDataType ot = st == ACL_COMPLEX64 ? ACL_FLOAT : st == ACL_COMPLEX128 ? ACL_DOUBLE : st;
    const Shape s = random_shape(rng, 0, 4, true);
    const TensorDesc sd = random_view(rng, st, s), od = random_view(rng, ot, s);
    const std::string r = "Real self=" + sd.str() + " out=" + od.str();
    Tensor x(sd), out(od);
    if (st == ACL_COMPLEX64) fill_complex<float>(x, rng);
    else if (st == ACL_COMPLEX128) fill_complex<double>(x, rng);
    else x.fill_random(rng);
    out.fill_random(rng);
    const std::vector<uint8_t> before = out.host();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return aclnnRealGetWorkspaceSize(x.get(), out.get(), w, e); },
                            aclnnReal),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    Mismatches m(r);
    for_each_index(s, [&](const Shape& idx) {
      Num e;
      if (st == ACL_COMPLEX64) e = Num::real(complex_at<float>(x, idx).real());
      else if (st == ACL_COMPLEX128) e = Num::real(complex_at<double>(x, idx).real());
      else e = x.at(idx);
      expect_exact(m, idx, ot, e, out.at(idx));
    });
    EXPECT_TRUE(writes_outside_view(out, before).empty()) << r;
  }
}

TEST(MathxReal, BadArguments) {
  const UnP1 p1 = [](aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) { return aclnnRealGetWorkspaceSize(s, o, w, e); };
  UnCase c;
  c.op = "Real";
  c.self = TensorDesc(ACL_COMPLEX64, {2});
  c.out = TensorDesc(ACL_DOUBLE, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
  c.self = TensorDesc(ACL_DOUBLE, {2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "self");
  c.self = TensorDesc(ACL_FLOAT, {2});
  c.out = TensorDesc(ACL_FLOAT, {1, 2});
  expect_error(c.str(), c, p1, ACLNN_ERR_PARAM_INVALID, "out");
}

}  // namespace
