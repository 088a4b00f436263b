// The mathx family's dense-kernel ops through the public C API: MaxN, MinN, AddN (tensor lists),
// IsInScalarTensor, Scale, Complex and Polar. References are written here from the CANN docs:
// MaxN/MinN fold maximum/minimum with NaN propagating over the broadcast of the list; AddN sums
// (float16/bfloat16 in float32, rounded once; integers wrap); IsInScalarTensor compares in CANN's
// promoted dtype; Scale multiplies by scale (and adds bias) indexed by x's dims [axis, axis + len);
// Complex interleaves real and imaginary parts; Polar is abs * (cos angle, sin angle).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_complex.h"
#include "aclnnop/aclnn_isin.h"
#include "aclnnop/aclnn_maxn.h"
#include "aclnnop/aclnn_minn.h"
#include "aclnnop/aclnn_polar.h"
#include "aclnnop/aclnn_scale.h"
#include "test_mathx_util.h"

namespace {

using namespace mathx;

// ---- MaxN / MinN / AddN ---------------------------------------------------------------------------

enum class Fold { kMax, kMin, kAdd };
const char* fold_name(Fold f) { return f == Fold::kMax ? "MaxN" : f == Fold::kMin ? "MinN" : "AddN"; }

aclnnStatus fold_p1(Fold f, aclTensorList* l, aclTensor* out, uint64_t* w, aclOpExecutor** e) {
  switch (f) {
    case Fold::kMax: return aclnnMaxNGetWorkspaceSize(l, out, w, e);
    case Fold::kMin: return aclnnMinNGetWorkspaceSize(l, out, w, e);
    case Fold::kAdd: return aclnnAddNGetWorkspaceSize(l, out, w, e);
  }
  return -1;
}
Phase2Fn fold_p2(Fold f) { return f == Fold::kMax ? aclnnMaxN : f == Fold::kMin ? aclnnMinN : aclnnAddN; }

std::string list_str(const char* op, const std::vector<TensorDesc>& ins, const TensorDesc& out) {
  std::string r = std::string(op) + " tensors=[";
  for (size_t i = 0; i < ins.size(); ++i) r += (i ? ", " : "") + ins[i].str();
  return r + "] out=" + out.str();
}

void run_fold(Rng& rng, Fold f, const std::vector<TensorDesc>& ins, const TensorDesc& od) {
  const std::string r = list_str(fold_name(f), ins, od);
  std::vector<std::unique_ptr<Tensor>> ts;
  std::vector<Tensor*> raw;
  FillOptions fo;
  fo.special = 0.3;  // NaN, infinities and signed zeros in every operand position
  for (const TensorDesc& d : ins) {
    ts.push_back(std::make_unique<Tensor>(d));
    ts.back()->fill_random(rng, fo);
    raw.push_back(ts.back().get());
  }
  Tensor out(od);
  out.fill_random(rng);
  const std::vector<uint8_t> before = out.host();
  TensorList list(raw);
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return fold_p1(f, list.get(), out.get(), w, e); }, fold_p2(f)),
            ACL_SUCCESS)
      << r << ": " << aclGetRecentErrMsg();
  out.download();
  Mismatches m(r);
  const aclDataType t = od.dtype;
  for_each_index(od.shape, [&](const Shape& idx) {
    if (is_floating(t)) {
      double acc = 0;
      for (size_t k = 0; k < ts.size(); ++k) {
        const double v = ts[k]->at(broadcast_index(idx, ins[k].shape)).f;
        if (k == 0) acc = v;
        else if (f == Fold::kAdd) acc = static_cast<double>(static_cast<float>(acc) + static_cast<float>(v));
        else if (std::isnan(acc) || std::isnan(v)) acc = std::isnan(acc) ? acc : v;
        else acc = f == Fold::kMax ? std::max(acc, v) : std::min(acc, v);
      }
      // AddN: float32 accumulation (exact for the references' float32 adds), rounded once to t.
      expect_float(m, idx, acc, t, t, out.at(idx), Tol{});
    } else {
      uint64_t sum = 0;
      int64_t best = 0;
      for (size_t k = 0; k < ts.size(); ++k) {
        const int64_t v = ts[k]->at(broadcast_index(idx, ins[k].shape)).i;
        sum += static_cast<uint64_t>(v);
        if (k == 0 || (f == Fold::kMax ? v > best : v < best)) best = v;
      }
      expect_exact(m, idx, t, Num::integer(f == Fold::kAdd ? wrap_int(sum, t) : best), out.at(idx));
    }
  });
  EXPECT_TRUE(writes_outside_view(out, before).empty()) << r;
}

TEST(MathxFoldList, MaxNMinNAddN) {
  Rng rng(31);
  const std::vector<aclDataType> maxn = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16};
  const std::vector<aclDataType> addn = {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
  for (int iter = 0; iter < 90; ++iter) {
    const Fold f = static_cast<Fold>(iter % 3);
    const aclDataType t = pick(rng, f == Fold::kAdd ? addn : maxn);
    const Shape shape = random_shape(rng, 0, 4, true);
    const int n = 1 + static_cast<int>(rng() % 4);
    std::vector<TensorDesc> ins;
    for (int k = 0; k < n; ++k) {
      Shape s = f == Fold::kAdd ? shape : broadcast_partner(rng, shape);
      if (f != Fold::kAdd && k == 0) s = shape;  // the broadcast must reach out's shape
      ins.push_back(random_view(rng, t, s));
    }
    run_fold(rng, f, ins, random_view(rng, t, shape));
  }
}

TEST(MathxFoldList, NanPropagatesFromAnyPosition) {
  for (Fold f : {Fold::kMax, Fold::kMin}) {
    const double a[4] = {1, NAN, 2, NAN}, b[4] = {NAN, 1, 3, -0.0};
    Tensor x(TensorDesc(ACL_FLOAT, {4})), y(TensorDesc(ACL_FLOAT, {4})), out(TensorDesc(ACL_FLOAT, {4}));
    for (int i = 0; i < 4; ++i) {
      x.set({i}, Num::real(a[i]));
      y.set({i}, Num::real(b[i]));
    }
    x.upload();
    y.upload();
    TensorList list({&x, &y});
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return fold_p1(f, list.get(), out.get(), w, e); },
                            fold_p2(f)),
              ACL_SUCCESS);
    out.download();
    Mismatches m(std::string(fold_name(f)) + " [1,nan,2,nan] [nan,1,3,-0]");
    const double want[4] = {NAN, NAN, f == Fold::kMax ? 3.0 : 2.0, NAN};
    for (int i = 0; i < 4; ++i) expect_float(m, {i}, want[i], ACL_FLOAT, ACL_FLOAT, out.at({i}), Tol{});
  }
}

TEST(MathxFoldList, BadArguments) {
  auto expect = [](Fold f, const std::vector<TensorDesc>& ins, const TensorDesc& od, aclnnStatus code, const char* what) {
    std::vector<std::unique_ptr<Tensor>> ts;
    std::vector<Tensor*> raw;
    for (const TensorDesc& d : ins) {
      ts.push_back(std::make_unique<Tensor>(d));
      raw.push_back(ts.back().get());
    }
    Tensor out(od);
    TensorList list(raw);
    expect_phase1_error(list_str(fold_name(f), ins, od), code, what,
                        [&](uint64_t* w, aclOpExecutor** e) { return fold_p1(f, list.get(), out.get(), w, e); });
  };
  expect(Fold::kMax, {}, TensorDesc(ACL_FLOAT, {2}), ACLNN_ERR_PARAM_INVALID, "tensors");
  expect(Fold::kMax, {TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT16, {2})}, TensorDesc(ACL_FLOAT, {2}),
         ACLNN_ERR_PARAM_INVALID, "tensors[1]");
  expect(Fold::kMin, {TensorDesc(ACL_DOUBLE, {2})}, TensorDesc(ACL_DOUBLE, {2}), ACLNN_ERR_PARAM_INVALID, "out");
  expect(Fold::kMin, {TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {3})}, TensorDesc(ACL_FLOAT, {2}),
         ACLNN_ERR_PARAM_INVALID, "tensors[1]");
  expect(Fold::kMax, {TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {3, 1})}, TensorDesc(ACL_FLOAT, {2}),
         ACLNN_ERR_PARAM_INVALID, "out");
  expect(Fold::kAdd, {TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {1})}, TensorDesc(ACL_FLOAT, {2}),
         ACLNN_ERR_PARAM_INVALID, "tensors[1]");
  expect(Fold::kAdd, {TensorDesc(ACL_INT8, {2})}, TensorDesc(ACL_INT8, {2}), ACLNN_ERR_PARAM_INVALID, "int8");
  Tensor out(TensorDesc(ACL_FLOAT, {2}));
  expect_phase1_error("AddN tensors=null", ACLNN_ERR_PARAM_NULLPTR, "tensors",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnAddNGetWorkspaceSize(nullptr, out.get(), w, e); });
}

// ---- IsInScalarTensor -----------------------------------------------------------------------------

TEST(MathxIsInScalarTensor, DtypesSizesAndInvert) {
  Rng rng(32);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT32, ACL_INT64,
                                          ACL_UINT8, ACL_BF16,    ACL_DOUBLE, ACL_INT16};
  FillOptions small;
  small.small_int = 0.8;
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType et = pick(rng, types), tt = pick(rng, types);
    const bool invert = rng() % 2;
    const Shape s = rng() % 3 ? Shape{static_cast<int64_t>(rng() % 14)} : random_shape(rng, 0, 3, true);
    const TensorDesc td = random_view(rng, tt, s);
    Num v = rng() % 3 ? Num::integer(static_cast<int64_t>(rng() % 11) - 5) : random_value(et, rng);
    if (is_floating(et) && rng() % 4 == 0) v = Num::real(static_cast<double>(rng() % 9) - 4.5);
    if (is_floating(et) && rng() % 10 == 0) v = Num::real(NAN);
    const ScalarDesc sd(et, v);
    const std::string r = "IsInScalarTensor element=" + sd.str() + " testElements=" + td.str() +
                          " invert=" + (invert ? "true" : "false");
    Tensor test(td), out(TensorDesc(ACL_BOOL, {}));
    Scalar el(sd);
    test.fill_random(rng, small);
    ASSERT_EQ(run_two_phase(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnIsInScalarTensorGetWorkspaceSize(el.get(), test.get(), false, invert, out.get(), w, e);
                  },
                  aclnnIsInScalarTensor),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    // CANN's compare dtype.
    aclDataType c;
    if (numel(s) >= 10) c = promote_types(tt, et);
    else if (is_floating(tt)) c = tt;
    else if (is_floating(et)) c = promote_types(tt, et);
    else c = tt;
    const Num ev = cast(sd.value, c);
    bool found = false;
    for_each_index(s, [&](const Shape& idx) {
      const Num x = cast(test.at(idx), c);
      if (is_floating(c) ? x.f == ev.f : x.i == ev.i) found = true;
    });
    Mismatches m(r);
    expect_exact(m, {}, ACL_BOOL, Num::integer(found != invert), out.at({}));
  }
}

TEST(MathxIsInScalarTensor, BadArguments) {
  Tensor test(TensorDesc(ACL_FLOAT, {3})), out(TensorDesc(ACL_BOOL, {})), out1(TensorDesc(ACL_BOOL, {1})),
      outf(TensorDesc(ACL_FLOAT, {})), testb(TensorDesc(ACL_BOOL, {3}));
  Scalar s(ScalarDesc(ACL_FLOAT, 1.0)), sb(ScalarDesc(ACL_BOOL, 1.0));
  auto p1 = [](const Scalar* el, const Tensor& t, const Tensor& o) {
    return [el, &t, &o](uint64_t* w, aclOpExecutor** e) {
      return aclnnIsInScalarTensorGetWorkspaceSize(el ? el->get() : nullptr, t.get(), false, false, o.get(), w, e);
    };
  };
  expect_phase1_error("IsInScalarTensor out=bool[1]", ACLNN_ERR_PARAM_INVALID, "out", p1(&s, test, out1));
  expect_phase1_error("IsInScalarTensor out=float32[]", ACLNN_ERR_PARAM_INVALID, "out", p1(&s, test, outf));
  expect_phase1_error("IsInScalarTensor element=bool", ACLNN_ERR_PARAM_INVALID, "element", p1(&sb, test, out));
  expect_phase1_error("IsInScalarTensor testElements=bool", ACLNN_ERR_PARAM_INVALID, "testElements",
                      p1(&s, testb, out));
  expect_phase1_error("IsInScalarTensor element=null", ACLNN_ERR_PARAM_NULLPTR, "element", p1(nullptr, test, out));
}

// ---- Scale ----------------------------------------------------------------------------------------

struct ScaleCase {
  TensorDesc x, scale, y;
  bool has_bias = false;
  TensorDesc bias;
  int64_t axis = 0, num_axes = -1;
  bool from_blob = true;
  std::string str() const {
    return "Scale x=" + x.str() + " scale=" + scale.str() + " bias=" + (has_bias ? bias.str() : "null") +
           " axis=" + std::to_string(axis) + " numAxes=" + std::to_string(num_axes) +
           " scaleFromBlob=" + (from_blob ? "true" : "false") + " y=" + y.str();
  }
};

aclnnStatus scale_p1(const ScaleCase& c, Tensor& x, Tensor& s, Tensor* b, Tensor& y, uint64_t* w, aclOpExecutor** e) {
  return aclnnScaleGetWorkspaceSize(x.get(), s.get(), b ? b->get() : nullptr, c.axis, c.num_axes, c.from_blob, y.get(),
                                    w, e);
}

TEST(MathxScale, AxesBlobBiasDtypesAndViews) {
  Rng rng(33);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 80; ++iter) {
    ScaleCase c;
    const aclDataType t = pick(rng, types);
    const Shape xs = random_shape(rng, 1, 5, true);
    const int64_t rank = static_cast<int64_t>(xs.size());
    const int64_t ax = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
    c.axis = rng() % 2 ? ax : ax - rank;
    c.from_blob = rng() % 2;
    int64_t len;
    bool single = false;
    if (c.from_blob) {
      const int kind = static_cast<int>(rng() % 4);
      if (kind == 0) {
        c.num_axes = 0;
        single = true;
        len = 0;
      } else if (kind == 1) {
        c.num_axes = -1;
        len = rank - ax;
      } else {
        c.num_axes = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rank - ax));
        len = c.num_axes;
      }
    } else {
      len = static_cast<int64_t>(rng() % static_cast<uint64_t>(rank - ax + 1));
      c.num_axes = static_cast<int64_t>(rng() % 3) - 1;  // ignored
    }
    Shape ss = single ? Shape{1} : Shape(xs.begin() + ax, xs.begin() + ax + len);
    if (!c.from_blob && len == 0) single = true;  // a 0-d scale: one value
    if (!c.from_blob && numel(ss) == 1 && len <= 1) single = true;
    c.x = random_view(rng, t, xs);
    c.scale = random_view(rng, t, ss);
    c.has_bias = rng() % 2;
    c.bias = random_view(rng, t, ss);
    c.y = random_view(rng, t, xs);
    const std::string r = c.str();
    Tensor x(c.x), s(c.scale), b(c.bias), y(c.y);
    x.fill_random(rng);
    s.fill_random(rng);
    b.fill_random(rng);
    y.fill_random(rng);
    const std::vector<uint8_t> before = y.host();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return scale_p1(c, x, s, c.has_bias ? &b : nullptr, y, w, e); },
                            aclnnScale),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    y.download();
    Mismatches m(r);
    for_each_index(xs, [&](const Shape& idx) {
      Shape si;
      if (single) si = Shape(ss.size(), 0);
      else si = Shape(idx.begin() + ax, idx.begin() + ax + len);
      const float sv = static_cast<float>(s.at(si).f), bv = c.has_bias ? static_cast<float>(b.at(si).f) : 0.0f;
      const float xv = static_cast<float>(x.at(idx).f);
      const float e = c.has_bias ? xv * sv + bv : xv * sv;
      // The product and the sum are float32 operations (the fused form may differ by one rounding).
      expect_float(m, idx, static_cast<double>(e), t, t, y.at(idx), Tol{t == ACL_FLOAT ? 1u : 0u, 0});
    });
    EXPECT_TRUE(writes_outside_view(y, before).empty()) << r;
  }
}

TEST(MathxScale, BadArguments) {
  auto expect = [](ScaleCase c, const char* what) {
    Tensor x(c.x), s(c.scale), b(c.bias), y(c.y);
    expect_phase1_error(c.str(), ACLNN_ERR_PARAM_INVALID, what, [&](uint64_t* w, aclOpExecutor** e) {
      return scale_p1(c, x, s, c.has_bias ? &b : nullptr, y, w, e);
    });
  };
  ScaleCase ok;
  ok.x = TensorDesc(ACL_FLOAT, {4, 2});
  ok.scale = TensorDesc(ACL_FLOAT, {4});
  ok.bias = TensorDesc(ACL_FLOAT, {4});
  ok.y = TensorDesc(ACL_FLOAT, {4, 2});
  ok.axis = 0;
  ok.num_axes = 1;
  ScaleCase c = ok;
  c.x.dtype = c.scale.dtype = c.bias.dtype = c.y.dtype = ACL_DOUBLE;
  expect(c, "x");
  c = ok;
  c.scale.dtype = ACL_FLOAT16;
  expect(c, "scale");
  c = ok;
  c.has_bias = true;
  c.bias.dtype = ACL_FLOAT16;
  expect(c, "bias");
  c = ok;
  c.has_bias = true;
  c.bias.shape = {2};
  expect(c, "bias");
  c = ok;
  c.y.shape = {2, 4};
  expect(c, "y");
  c = ok;
  c.axis = 2;
  expect(c, "axis");
  c = ok;
  c.num_axes = -2;
  expect(c, "numAxes");
  c = ok;
  c.num_axes = 0;
  expect(c, "scale");
  c = ok;
  c.num_axes = 3;
  expect(c, "numAxes");
  c = ok;
  c.scale.shape = {2};
  expect(c, "scale");
  c = ok;
  c.from_blob = false;
  c.scale.shape = {4, 2, 1};
  expect(c, "scale");
  c = ok;
  c.from_blob = false;
  c.axis = 1;
  c.scale.shape = {4};
  expect(c, "scale");
}

// ---- Complex / Polar ------------------------------------------------------------------------------

template <typename F>
std::complex<F> complex_at(const Tensor& t, const Shape& idx) {
  const F* p = reinterpret_cast<const F*>(t.host().data()) + 2 * t.desc().storage_index(idx);
  return {p[0], p[1]};
}

TEST(MathxComplex, ComplexAndPolar) {
  Rng rng(34);
  for (int iter = 0; iter < 60; ++iter) {
    const bool polar = iter % 3 == 2;
    const aclDataType part = polar ? ACL_FLOAT : (rng() % 2 ? ACL_FLOAT : ACL_DOUBLE);
    const aclDataType ct = part == ACL_FLOAT ? ACL_COMPLEX64 : ACL_COMPLEX128;
    const Shape os = random_shape(rng, 0, 4, true);
    Shape as = rng() % 2 ? os : broadcast_partner(rng, os), bs = os;
    if (rng() % 2 && as == os) bs = broadcast_partner(rng, os);
    const TensorDesc ad = random_view(rng, part, as), bd = random_view(rng, part, bs), od = random_view(rng, ct, os);
    const std::string r = std::string(polar ? "Polar input=" : "Complex real=") + ad.str() +
                          (polar ? " angle=" : " imag=") + bd.str() + " out=" + od.str();
    Tensor a(ad), b(bd), out(od);
    a.fill_random(rng);
    b.fill_random(rng);
    for (auto& byte : out.host()) byte = static_cast<uint8_t>(rng());
    out.upload();
    const std::vector<uint8_t> before = out.host();
    ASSERT_EQ(run_two_phase(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return polar ? aclnnPolarGetWorkspaceSize(a.get(), b.get(), out.get(), w, e)
                                 : aclnnComplexGetWorkspaceSize(a.get(), b.get(), out.get(), w, e);
                  },
                  polar ? aclnnPolar : aclnnComplex),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    Mismatches m(r);
    for_each_index(os, [&](const Shape& idx) {
      const double x = a.at(broadcast_index(idx, as)).f, y = b.at(broadcast_index(idx, bs)).f;
      double re = x, im = y;
      if (polar) {
        re = x * std::cos(y);
        im = x * std::sin(y);
      }
      Num gr, gi;
      if (ct == ACL_COMPLEX64) {
        const std::complex<float> z = complex_at<float>(out, idx);
        gr = Num::real(z.real());
        gi = Num::real(z.imag());
      } else {
        const std::complex<double> z = complex_at<double>(out, idx);
        gr = Num::real(z.real());
        gi = Num::real(z.imag());
      }
      // Polar: cos and sin in float32 times abs (a few ulps; tiny results near the zeros of cos/sin).
      const Tol tol = polar ? Tol{4, 1e-6 * std::fabs(x)} : Tol{};
      expect_float(m, idx, re, part, part, gr, tol);
      expect_float(m, idx, im, part, part, gi, tol);
    });
    EXPECT_TRUE(writes_outside_view(out, before).empty()) << r;
  }
}

TEST(MathxComplex, BadArguments) {
  auto expect = [](bool polar, TensorDesc a, TensorDesc b, TensorDesc o, const char* what) {
    Tensor x(a), y(b), out(o);
    expect_phase1_error(std::string(polar ? "Polar " : "Complex ") + a.str() + " " + b.str() + " out=" + o.str(),
                        ACLNN_ERR_PARAM_INVALID, what, [&](uint64_t* w, aclOpExecutor** e) {
                          return polar ? aclnnPolarGetWorkspaceSize(x.get(), y.get(), out.get(), w, e)
                                       : aclnnComplexGetWorkspaceSize(x.get(), y.get(), out.get(), w, e);
                        });
  };
  expect(false, TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_DOUBLE, {2}), TensorDesc(ACL_COMPLEX64, {2}), "imag");
  expect(false, TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_COMPLEX128, {2}), "out");
  expect(false, TensorDesc(ACL_INT32, {2}), TensorDesc(ACL_INT32, {2}), TensorDesc(ACL_COMPLEX64, {2}), "real");
  expect(false, TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {3}), TensorDesc(ACL_COMPLEX64, {2}), "imag");
  expect(false, TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_COMPLEX64, {1, 2}), "out");
  expect(false, TensorDesc(ACL_FLOAT16, {2}), TensorDesc(ACL_FLOAT16, {2}), TensorDesc(ACL_COMPLEX64, {2}),
         "not supported by pacl");
  expect(true, TensorDesc(ACL_DOUBLE, {2}), TensorDesc(ACL_DOUBLE, {2}), TensorDesc(ACL_COMPLEX128, {2}), "input");
  expect(true, TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {2}), TensorDesc(ACL_FLOAT, {2}), "out");
}

}  // namespace
