// The mathx family's binary elementwise ops through the public C API: XLogYTensor,
// InplaceXLogYTensor, XLogYScalarOther, InplaceXLogYScalarOther, XLogYScalarSelf, LeftShift,
// LeftShifts, RightShift, Gcd, LogAddExp, LogAddExp2, IsClose, IsInTensorScalar.
//
// References are written here from the CANN docs (dtypes, result dtype) and PyTorch's definitions
// (values): operands are cast to the compute dtype, the function is evaluated in long double (or
// exactly for integer ops and predicates), rounded to the compute dtype, then to out's dtype.
// Floating results are compared within a few ulps of the coarser of compute and out dtype; NaN,
// infinities and zero signs exactly. Each case is one line (BinCase::str()), printed on failure.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_isin_tensor_scalar.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "test_mathx_util.h"

namespace {

using namespace mathx;

// ---- one binary case -----------------------------------------------------------------------------

struct Operand {
  bool scalar = false;
  TensorDesc t;
  ScalarDesc s;
  std::string str() const { return scalar ? s.str() : t.str(); }
  aclDataType dtype() const { return scalar ? s.dtype : t.dtype; }
};

struct BinCase {
  std::string op;
  Operand a, b;
  TensorDesc out;  // unused in place (a is the output)
  bool inplace = false;
  std::string attrs;  // extra attributes, for the repro
  std::string str() const {
    std::string r = op + " a=" + a.str() + " b=" + b.str();
    if (!inplace) r += " out=" + out.str();
    if (!attrs.empty()) r += " " + attrs;
    return r;
  }
  const Shape& result_shape() const { return inplace ? a.t.shape : out.shape; }
  aclDataType out_dtype() const { return inplace ? a.t.dtype : out.dtype; }
};

using BinP1 = std::function<aclnnStatus(aclTensor* at, aclScalar* as, aclTensor* bt, aclScalar* bs, aclTensor* out,
                                        uint64_t*, aclOpExecutor**)>;
// Checks out at idx given the operands' values there (in their own dtypes).
using BinRef = std::function<void(Mismatches&, const Shape& idx, const Num& a, const Num& b, const Num& actual)>;
using Filler = std::function<void(Tensor&, Rng&)>;

void default_fill(Tensor& t, Rng& rng) { t.fill_random(rng); }

struct Bound {
  std::unique_ptr<Tensor> at, bt, ot;
  std::unique_ptr<Scalar> as, bs;
  aclTensor* out() const { return ot ? ot->get() : at->get(); }
};

Bound bind(const BinCase& c) {
  Bound x;
  if (c.a.scalar) x.as = std::make_unique<Scalar>(c.a.s);
  else x.at = std::make_unique<Tensor>(c.a.t);
  if (c.b.scalar) x.bs = std::make_unique<Scalar>(c.b.s);
  else x.bt = std::make_unique<Tensor>(c.b.t);
  if (!c.inplace) x.ot = std::make_unique<Tensor>(c.out);
  return x;
}

aclnnStatus call(const BinP1& p1, const Bound& x, uint64_t* ws, aclOpExecutor** ex) {
  return p1(x.at ? x.at->get() : nullptr, x.as ? x.as->get() : nullptr, x.bt ? x.bt->get() : nullptr,
            x.bs ? x.bs->get() : nullptr, x.out(), ws, ex);
}

void run_binary(Rng& rng, const BinCase& c, const BinP1& p1, Phase2Fn p2, const BinRef& ref,
                const Filler& fill_a = default_fill, const Filler& fill_b = default_fill) {
  Bound x = bind(c);
  if (x.at) fill_a(*x.at, rng);
  if (x.bt) fill_b(*x.bt, rng);
  if (x.ot) x.ot->fill_random(rng);
  const std::vector<uint8_t> a_before = x.at ? x.at->host() : std::vector<uint8_t>{};
  Tensor& out = x.ot ? *x.ot : *x.at;
  const std::vector<uint8_t> out_before = out.host();
  const aclnnStatus st = run_two_phase([&](uint64_t* ws, aclOpExecutor** ex) { return call(p1, x, ws, ex); }, p2);
  ASSERT_EQ(st, ACL_SUCCESS) << c.str() << ": " << aclGetRecentErrMsg();
  out.download();
  Mismatches m(c.str());
  for_each_index(c.result_shape(), [&](const Shape& idx) {
    const Num a = c.a.scalar ? c.a.s.value : x.at->at(a_before, broadcast_index(idx, c.a.t.shape));
    const Num b = c.b.scalar ? c.b.s.value : x.bt->at(broadcast_index(idx, c.b.t.shape));
    ref(m, idx, a, b, out.at(idx));
  });
  const std::string outside = writes_outside_view(out, out_before);
  EXPECT_TRUE(outside.empty()) << c.str() << ": wrote outside the out view:" << outside;
}

void expect_error(const BinCase& c, const BinP1& p1, aclnnStatus code, const char* mention) {
  Bound x = bind(c);
  expect_phase1_error(c.str(), code, mention, [&](uint64_t* ws, aclOpExecutor** ex) { return call(p1, x, ws, ex); });
}

// Random shapes for a binary case: out's shape, and a and b broadcasting to it.
struct Shapes {
  Shape out, a, b;
};
Shapes random_shapes(Rng& rng, bool a_full = false) {
  Shapes s;
  s.out = random_shape(rng, 0, 4, true);
  s.a = a_full || rng() % 3 == 0 ? s.out : broadcast_partner(rng, s.out);
  // b keeps out's dim wherever a does not have it, and may drop (or set to 1) the others.
  const size_t n = s.out.size(), off = n - s.a.size();
  s.b = s.out;
  for (size_t i = 0; i < n; ++i) {
    const bool a_has = i >= off && s.a[i - off] == s.out[i];
    if (a_has && rng() % 2) s.b[i] = 1;
  }
  size_t drop = 0;
  while (off == 0 && drop < n && s.b[drop] == 1 && rng() % 2) ++drop;
  s.b.erase(s.b.begin(), s.b.begin() + static_cast<int64_t>(drop));
  return s;
}

Operand tensor_operand(Rng& rng, aclDataType t, const Shape& shape) { return Operand{false, random_view(rng, t, shape), {}}; }
Operand scalar_operand(aclDataType t, Num v) { return Operand{true, {}, ScalarDesc(t, v)}; }

// A random value of dtype t for a scalar operand.
Num random_scalar(Rng& rng, aclDataType t) { return random_value(t, rng); }

const std::vector<aclDataType> kAll = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT32,
                                       ACL_INT64, ACL_INT16,   ACL_INT8,  ACL_UINT8,  ACL_BOOL};
const std::vector<aclDataType> kInts = {ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8};

// ---- XLogY ----------------------------------------------------------------------------------------

const std::vector<aclDataType> kXLogYTypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT8,
                                              ACL_UINT8, ACL_BOOL,  ACL_INT16, ACL_BF16};

enum class XForm { kTensor, kInplaceTensor, kScalarOther, kInplaceScalarOther, kScalarSelf };

BinP1 xlogy_p1(XForm f) {
  switch (f) {
    case XForm::kTensor:
      return [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
        return aclnnXLogYTensorGetWorkspaceSize(a, b, o, w, e);
      };
    case XForm::kInplaceTensor:
      return [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor*, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceXLogYTensorGetWorkspaceSize(a, b, w, e);
      };
    case XForm::kScalarOther:
      return [](aclTensor* a, aclScalar*, aclTensor*, aclScalar* b, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
        return aclnnXLogYScalarOtherGetWorkspaceSize(a, b, o, w, e);
      };
    case XForm::kInplaceScalarOther:
      return [](aclTensor* a, aclScalar*, aclTensor*, aclScalar* b, aclTensor*, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceXLogYScalarOtherGetWorkspaceSize(a, b, w, e);
      };
    case XForm::kScalarSelf:
      return [](aclTensor*, aclScalar* a, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
        return aclnnXLogYScalarSelfGetWorkspaceSize(a, b, o, w, e);
      };
  }
  return nullptr;
}
Phase2Fn xlogy_p2(XForm f) {
  switch (f) {
    case XForm::kTensor: return aclnnXLogYTensor;
    case XForm::kInplaceTensor: return aclnnInplaceXLogYTensor;
    case XForm::kScalarOther: return aclnnXLogYScalarOther;
    case XForm::kInplaceScalarOther: return aclnnInplaceXLogYScalarOther;
    case XForm::kScalarSelf: return aclnnXLogYScalarSelf;
  }
  return nullptr;
}
const char* xlogy_name(XForm f) {
  static const char* n[] = {"XLogYTensor", "InplaceXLogYTensor", "XLogYScalarOther", "InplaceXLogYScalarOther",
                            "XLogYScalarSelf"};
  return n[static_cast<int>(f)];
}

// CANN's compute dtype: the promotion (a scalar as a tensor), integers and bool in float32, and a
// float64 promotion (only possible with a scalar) in float32.
aclDataType xlogy_compute(aclDataType a, aclDataType b) {
  const aclDataType p = promote_types(a, b);
  return (!is_floating(p) || p == ACL_DOUBLE) ? ACL_FLOAT : p;
}

BinRef xlogy_ref(aclDataType compute, aclDataType out) {
  return [=](Mismatches& m, const Shape& idx, const Num& a, const Num& b, const Num& actual) {
    const long double x = cast(a, compute).as_double(), y = cast(b, compute).as_double();
    double e;
    if (std::isnan(static_cast<double>(y))) e = NAN;
    else if (x == 0) e = 0;
    else e = static_cast<double>(x * std::log(y));
    expect_float(m, idx, e, compute, out, actual, Tol{4, 0});
  };
}

TEST(MathxXLogY, AllFormsDtypesShapesAndViews) {
  Rng rng(11);
  const std::vector<aclDataType> outs = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  const std::vector<aclDataType> scalars = {ACL_FLOAT, ACL_DOUBLE, ACL_INT64, ACL_FLOAT16, ACL_BOOL, ACL_INT32};
  for (int iter = 0; iter < 150; ++iter) {
    const XForm f = static_cast<XForm>(iter % 5);
    const bool inplace = f == XForm::kInplaceTensor || f == XForm::kInplaceScalarOther;
    BinCase c;
    c.op = xlogy_name(f);
    c.inplace = inplace;
    Shapes s = random_shapes(rng, inplace);
    if (inplace) s.out = s.a;
    aclDataType at = pick(rng, kXLogYTypes), bt = pick(rng, kXLogYTypes);
    if (f == XForm::kScalarSelf) at = pick(rng, scalars);
    if (f == XForm::kScalarOther || f == XForm::kInplaceScalarOther) bt = pick(rng, scalars);
    const aclDataType compute = xlogy_compute(at, bt);
    if (inplace && !is_floating(at)) at = pick(rng, std::vector<aclDataType>{ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
    const aclDataType compute2 = xlogy_compute(at, bt);
    c.a = f == XForm::kScalarSelf ? scalar_operand(at, random_scalar(rng, at)) : tensor_operand(rng, at, s.a);
    c.b = (f == XForm::kScalarOther || f == XForm::kInplaceScalarOther) ? scalar_operand(bt, random_scalar(rng, bt))
                                                                         : tensor_operand(rng, bt, s.b);
    if (f == XForm::kScalarSelf) c.out = random_view(rng, pick(rng, outs), c.b.t.shape);
    else if (!inplace) c.out = random_view(rng, pick(rng, outs), f == XForm::kTensor ? s.out : c.a.t.shape);
    (void)compute;
    run_binary(rng, c, xlogy_p1(f), xlogy_p2(f), xlogy_ref(compute2, c.out_dtype()));
  }
}

TEST(MathxXLogY, SpecialValues) {
  // 0 * log(0), 0 * log(NaN), x * log(-1), 0 * log(inf), x * log(0).
  BinCase c;
  c.op = "XLogYTensor";
  c.a = Operand{false, TensorDesc(ACL_FLOAT, {6}), {}};
  c.b = Operand{false, TensorDesc(ACL_FLOAT, {6}), {}};
  c.out = TensorDesc(ACL_FLOAT, {6});
  const double av[6] = {0, 0, 2, 0, 3, -0.0};
  const double bv[6] = {0, NAN, -1, HUGE_VAL, 0, 5};
  const double want[6] = {0, NAN, NAN, 0, -HUGE_VAL, 0};
  Bound x = bind(c);
  for (int i = 0; i < 6; ++i) {
    x.at->set({i}, Num::real(av[i]));
    x.bt->set({i}, Num::real(bv[i]));
  }
  x.at->upload();
  x.bt->upload();
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) { return call(xlogy_p1(XForm::kTensor), x, w, e); },
                          aclnnXLogYTensor),
            ACL_SUCCESS);
  x.ot->download();
  Mismatches m(c.str());
  for (int i = 0; i < 6; ++i) expect_float(m, {i}, want[i], ACL_FLOAT, ACL_FLOAT, x.ot->at({i}), Tol{});
}

TEST(MathxXLogY, BadArguments) {
  const BinP1 p1 = xlogy_p1(XForm::kTensor);
  auto mk = [](aclDataType a, Shape as, aclDataType b, Shape bs, aclDataType o, Shape os) {
    BinCase c;
    c.op = "XLogYTensor";
    c.a = Operand{false, TensorDesc(a, as), {}};
    c.b = Operand{false, TensorDesc(b, bs), {}};
    c.out = TensorDesc(o, os);
    return c;
  };
  expect_error(mk(ACL_DOUBLE, {2}, ACL_FLOAT, {2}, ACL_FLOAT, {2}), p1, ACLNN_ERR_PARAM_INVALID, "self");
  expect_error(mk(ACL_FLOAT, {2}, ACL_COMPLEX64, {2}, ACL_FLOAT, {2}), p1, ACLNN_ERR_PARAM_INVALID, "other");
  expect_error(mk(ACL_FLOAT, {2}, ACL_FLOAT, {3}, ACL_FLOAT, {2}), p1, ACLNN_ERR_PARAM_INVALID, "other");
  expect_error(mk(ACL_FLOAT, {2, 3}, ACL_FLOAT, {3}, ACL_FLOAT, {3}), p1, ACLNN_ERR_PARAM_INVALID, "out");
  expect_error(mk(ACL_FLOAT, {2}, ACL_FLOAT, {2}, ACL_INT32, {2}), p1, ACLNN_ERR_PARAM_INVALID, "int32");
  expect_error(mk(ACL_FLOAT, Shape(9, 1), ACL_FLOAT, {1}, ACL_FLOAT, Shape(9, 1)), p1, ACLNN_ERR_PARAM_INVALID,
               "self");
  // Null arguments.
  {
    Tensor t(TensorDesc(ACL_FLOAT, {2}));
    expect_phase1_error("XLogYTensor self=null", ACLNN_ERR_PARAM_NULLPTR, "self", [&](uint64_t* w, aclOpExecutor** e) {
      return aclnnXLogYTensorGetWorkspaceSize(nullptr, t.get(), t.get(), w, e);
    });
    expect_phase1_error("XLogYScalarOther other=null", ACLNN_ERR_PARAM_NULLPTR, "other",
                        [&](uint64_t* w, aclOpExecutor** e) {
                          return aclnnXLogYScalarOtherGetWorkspaceSize(t.get(), nullptr, t.get(), w, e);
                        });
    expect_phase1_error("XLogYScalarSelf out=null", ACLNN_ERR_PARAM_NULLPTR, "out", [&](uint64_t* w, aclOpExecutor** e) {
      Scalar s(ScalarDesc(ACL_FLOAT, 1.0));
      return aclnnXLogYScalarSelfGetWorkspaceSize(s.get(), t.get(), nullptr, w, e);
    });
  }
  // In place: the broadcast must be selfRef's shape; an integer selfRef cannot take a float result.
  BinCase c = mk(ACL_FLOAT, {3}, ACL_FLOAT, {2, 3}, ACL_FLOAT, {3});
  c.op = "InplaceXLogYTensor";
  c.inplace = true;
  expect_error(c, xlogy_p1(XForm::kInplaceTensor), ACLNN_ERR_PARAM_INVALID, "selfRef");
  c = mk(ACL_INT32, {3}, ACL_FLOAT, {3}, ACL_FLOAT, {3});
  c.op = "InplaceXLogYTensor";
  c.inplace = true;
  expect_error(c, xlogy_p1(XForm::kInplaceTensor), ACLNN_ERR_PARAM_INVALID, "selfRef");
  // A complex scalar is not in the list.
  BinCase s = mk(ACL_FLOAT, {3}, ACL_FLOAT, {3}, ACL_FLOAT, {3});
  s.op = "XLogYScalarOther";
  s.b = Operand{true, {}, ScalarDesc(ACL_UINT32, Num::integer(1))};
  expect_error(s, xlogy_p1(XForm::kScalarOther), ACLNN_ERR_PARAM_INVALID, "other");
}

// ---- shifts ---------------------------------------------------------------------------------------

enum class Shift { kLeft, kLefts, kRight };

BinP1 shift_p1(Shift s) {
  switch (s) {
    case Shift::kLeft:
      return [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
        return aclnnLeftShiftGetWorkspaceSize(a, b, o, w, e);
      };
    case Shift::kLefts:
      return [](aclTensor* a, aclScalar*, aclTensor*, aclScalar* b, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
        return aclnnLeftShiftsGetWorkspaceSize(a, b, o, w, e);
      };
    case Shift::kRight:
      return [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
        return aclnnRightShiftGetWorkspaceSize(a, b, o, w, e);
      };
  }
  return nullptr;
}

// The shift at the compute dtype's width, as PyTorch defines it.
int64_t shift_ref(bool left, int64_t a, int64_t s, aclDataType t) {
  const int bits = int_bits(t);
  if (left) {
    if (s < 0 || s >= bits) return 0;
    return wrap_int(static_cast<uint64_t>(a) << s, t);
  }
  if (s < 0 || s >= bits) return is_unsigned(t) ? 0 : (a < 0 ? -1 : 0);
  return a >> s;  // a is already in t's range; arithmetic for negative values
}

// Shift counts: mostly in [-2, 66], so that in-range and out-of-range counts both occur.
void fill_shift(Tensor& t, Rng& rng) {
  const TensorDesc& d = t.desc();
  const size_t es = dtype_size(d.dtype);
  for (int64_t k = 0; k < d.storage_elems(); ++k) {
    const Num v = rng() % 5 ? Num::integer(static_cast<int64_t>(rng() % 69) - 2) : random_value(d.dtype, rng);
    store(d.dtype, t.host().data() + k * es, v);
  }
  t.upload();
}

TEST(MathxShift, LeftShiftLeftShiftsRightShift) {
  Rng rng(12);
  for (int iter = 0; iter < 150; ++iter) {
    const Shift sh = static_cast<Shift>(iter % 3);
    BinCase c;
    c.op = sh == Shift::kLeft ? "LeftShift" : sh == Shift::kLefts ? "LeftShifts" : "RightShift";
    const Shapes s = random_shapes(rng);
    const aclDataType at = pick(rng, kInts), bt = pick(rng, kInts);
    c.a = tensor_operand(rng, at, sh == Shift::kLefts ? s.out : s.a);
    if (sh == Shift::kLefts) c.b = scalar_operand(bt, Num::integer(static_cast<int64_t>(rng() % 12) - 1));
    else c.b = tensor_operand(rng, bt, s.b);
    const aclDataType compute = promote_types(at, bt);
    c.out = random_view(rng, pick(rng, kInts), s.out);
    const aclDataType out = c.out.dtype;
    const bool left = sh != Shift::kRight;
    run_binary(
        rng, c, shift_p1(sh), sh == Shift::kLeft ? aclnnLeftShift : sh == Shift::kLefts ? aclnnLeftShifts : aclnnRightShift,
        [=](Mismatches& m, const Shape& idx, const Num& a, const Num& b, const Num& actual) {
          const int64_t x = cast(a, compute).i, n = cast(b, compute).i;
          expect_exact(m, idx, out, Num::integer(shift_ref(left, x, n, compute)), actual);
        },
        default_fill, fill_shift);
  }
}

TEST(MathxShift, BadArguments) {
  auto mk = [](const char* op, aclDataType a, Shape as, aclDataType b, Shape bs, aclDataType o, Shape os) {
    BinCase c;
    c.op = op;
    c.a = Operand{false, TensorDesc(a, as), {}};
    c.b = Operand{false, TensorDesc(b, bs), {}};
    c.out = TensorDesc(o, os);
    return c;
  };
  const BinP1 l = shift_p1(Shift::kLeft), r = shift_p1(Shift::kRight);
  expect_error(mk("LeftShift", ACL_FLOAT, {2}, ACL_INT32, {2}, ACL_INT32, {2}), l, ACLNN_ERR_PARAM_INVALID, "self");
  expect_error(mk("LeftShift", ACL_INT32, {2}, ACL_BOOL, {2}, ACL_INT32, {2}), l, ACLNN_ERR_PARAM_INVALID, "shiftBits");
  expect_error(mk("RightShift", ACL_INT32, {2}, ACL_INT32, {2}, ACL_FLOAT, {2}), r, ACLNN_ERR_PARAM_INVALID, "out");
  expect_error(mk("RightShift", ACL_INT32, {2}, ACL_INT32, {3}, ACL_INT32, {2}), r, ACLNN_ERR_PARAM_INVALID,
               "shiftBits");
  expect_error(mk("RightShift", ACL_INT32, {2, 2}, ACL_INT32, {2}, ACL_INT32, {2}), r, ACLNN_ERR_PARAM_INVALID, "out");
  // uint16/32/64 are in CANN's list but not computed by pacl: "not supported here" (still 161002).
  expect_error(mk("LeftShift", ACL_UINT32, {2}, ACL_INT32, {2}, ACL_INT32, {2}), l, ACLNN_ERR_PARAM_INVALID,
               "uint32");
  BinCase s = mk("LeftShifts", ACL_INT32, {2}, ACL_INT32, {2}, ACL_INT32, {2});
  s.b = Operand{true, {}, ScalarDesc(ACL_FLOAT, 1.0)};
  expect_error(s, shift_p1(Shift::kLefts), ACLNN_ERR_PARAM_INVALID, "shiftBits");
  s.b = Operand{true, {}, ScalarDesc(ACL_INT32, 1.0)};
  s.out = TensorDesc(ACL_INT32, {3});
  expect_error(s, shift_p1(Shift::kLefts), ACLNN_ERR_PARAM_INVALID, "out");
  Tensor t(TensorDesc(ACL_INT32, {2}));
  expect_phase1_error("RightShift input=null", ACLNN_ERR_PARAM_NULLPTR, "input", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnRightShiftGetWorkspaceSize(nullptr, t.get(), t.get(), w, e);
  });
}

// ---- Gcd ------------------------------------------------------------------------------------------

TEST(MathxGcd, DtypesShapesAndViews) {
  Rng rng(13);
  const std::vector<aclDataType> ins = {ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_BOOL};
  const auto gcd_p1 = [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w,
                         aclOpExecutor** e) { return aclnnGcdGetWorkspaceSize(a, b, o, w, e); };
  int ran = 0;
  for (int iter = 0; ran < 80; ++iter) {
    const aclDataType at = pick(rng, ins), bt = pick(rng, ins);
    const aclDataType compute = promote_types(at, bt);
    if (compute != ACL_INT16 && compute != ACL_INT32 && compute != ACL_INT64) continue;
    const aclDataType out = pick(rng, kInts);
    ++ran;
    const Shapes s = random_shapes(rng);
    BinCase c;
    c.op = "Gcd";
    c.a = tensor_operand(rng, at, s.a);
    c.b = tensor_operand(rng, bt, s.b);
    c.out = random_view(rng, out, s.out);
    run_binary(rng, c, gcd_p1, aclnnGcd, [=](Mismatches& m, const Shape& idx, const Num& a, const Num& b, const Num& actual) {
      const int64_t x = cast(a, compute).i, y = cast(b, compute).i;
      uint64_t u = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
      uint64_t v = y < 0 ? 0 - static_cast<uint64_t>(y) : static_cast<uint64_t>(y);
      while (v != 0) {
        const uint64_t r = u % v;
        u = v;
        v = r;
      }
      expect_exact(m, idx, out, Num::integer(wrap_int(u, compute)), actual);
    });
  }
}

TEST(MathxGcd, BadArguments) {
  const auto p1 = [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnGcdGetWorkspaceSize(a, b, o, w, e);
  };
  auto mk = [](aclDataType a, aclDataType b, aclDataType o, Shape os = {2}) {
    BinCase c;
    c.op = "Gcd";
    c.a = Operand{false, TensorDesc(a, {2}), {}};
    c.b = Operand{false, TensorDesc(b, {2}), {}};
    c.out = TensorDesc(o, os);
    return c;
  };
  expect_error(mk(ACL_BOOL, ACL_BOOL, ACL_INT32), p1, ACLNN_ERR_PARAM_INVALID, "bool");
  expect_error(mk(ACL_INT32, ACL_INT32, ACL_FLOAT), p1, ACLNN_ERR_PARAM_INVALID, "out");
  expect_error(mk(ACL_FLOAT, ACL_INT32, ACL_INT32), p1, ACLNN_ERR_PARAM_INVALID, "float32");
  expect_error(mk(ACL_UINT8, ACL_UINT8, ACL_INT32), p1, ACLNN_ERR_PARAM_INVALID, "uint8");
  expect_error(mk(ACL_INT32, ACL_INT32, ACL_INT32, {3}), p1, ACLNN_ERR_PARAM_INVALID, "out");
}

// ---- LogAddExp / LogAddExp2 -------------------------------------------------------------------------

TEST(MathxLogAddExp, BothOpsDtypesShapesAndViews) {
  Rng rng(14);
  const std::vector<aclDataType> outs = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int iter = 0; iter < 120; ++iter) {
    const bool two = iter % 2;
    const aclDataType out = pick(rng, outs);
    aclDataType at = pick(rng, kAll), bt = pick(rng, kAll);
    if (!can_cast(at, out)) at = out;
    if (!can_cast(bt, out)) bt = out;
    const Shapes s = random_shapes(rng);
    BinCase c;
    c.op = two ? "LogAddExp2" : "LogAddExp";
    c.a = tensor_operand(rng, at, s.a);
    c.b = tensor_operand(rng, bt, s.b);
    c.out = random_view(rng, out, s.out);
    const BinP1 p1 = [two](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w,
                           aclOpExecutor** e) {
      return two ? aclnnLogAddExp2GetWorkspaceSize(a, b, o, w, e) : aclnnLogAddExpGetWorkspaceSize(a, b, o, w, e);
    };
    run_binary(rng, c, p1, two ? aclnnLogAddExp2 : aclnnLogAddExp,
               [=](Mismatches& m, const Shape& idx, const Num& a, const Num& b, const Num& actual) {
                 const long double x = cast(a, out).as_double(), y = cast(b, out).as_double();
                 double e;
                 if (std::isnan(static_cast<double>(x)) || std::isnan(static_cast<double>(y))) e = NAN;
                 else if (std::isinf(static_cast<double>(x)) && x == y) e = static_cast<double>(x);
                 else if (std::isinf(static_cast<double>(std::max(x, y)))) e = HUGE_VAL;
                 else if (two) e = static_cast<double>(std::max(x, y) + std::log1p(std::exp2(-std::fabs(x - y))) / std::log(2.0L));
                 else e = static_cast<double>(std::max(x, y) + std::log1p(std::exp(-std::fabs(x - y))));
                 // The result can cancel (max < 0 plus a positive log term): allow a few ulps of max too.
                 const double eps = out == ACL_FLOAT ? 0x1p-23 : out == ACL_FLOAT16 ? 0x1p-10 : 0x1p-7;
                 const double big = std::isfinite(static_cast<double>(std::max(x, y))) ? std::fabs(static_cast<double>(std::max(x, y))) : 0;
                 expect_float(m, idx, e, out, out, actual, Tol{4, 4 * eps * big});
               });
  }
}

TEST(MathxLogAddExp, BadArguments) {
  const auto p1 = [](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnLogAddExpGetWorkspaceSize(a, b, o, w, e);
  };
  auto mk = [](aclDataType a, aclDataType b, aclDataType o, Shape bs = {2}) {
    BinCase c;
    c.op = "LogAddExp";
    c.a = Operand{false, TensorDesc(a, {2}), {}};
    c.b = Operand{false, TensorDesc(b, bs), {}};
    c.out = TensorDesc(o, {2});
    return c;
  };
  expect_error(mk(ACL_FLOAT, ACL_FLOAT, ACL_DOUBLE), p1, ACLNN_ERR_PARAM_INVALID, "out");
  expect_error(mk(ACL_FLOAT, ACL_FLOAT, ACL_INT32), p1, ACLNN_ERR_PARAM_INVALID, "out");
  expect_error(mk(ACL_COMPLEX64, ACL_FLOAT, ACL_FLOAT), p1, ACLNN_ERR_PARAM_INVALID, "self");
  expect_error(mk(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {3}), p1, ACLNN_ERR_PARAM_INVALID, "other");
  expect_error(mk(ACL_FLOAT, ACL_UINT16, ACL_FLOAT), p1, ACLNN_ERR_PARAM_INVALID, "uint16");
}

// ---- IsClose --------------------------------------------------------------------------------------

TEST(MathxIsClose, DtypesTolerancesShapesAndViews) {
  Rng rng(15);
  const double tols[] = {0.0, 1e-5, 1e-3, 0.25, 2.0};
  FillOptions near;
  near.small_int = 0.7;  // many equal and nearly equal values
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = pick(rng, kAll);
    const double rtol = tols[rng() % 5], atol = tols[rng() % 5];
    const bool equal_nan = rng() % 2;
    const Shapes s = random_shapes(rng);
    BinCase c;
    c.op = "IsClose";
    c.a = tensor_operand(rng, t, s.a);
    c.b = tensor_operand(rng, t, s.b);
    c.out = random_view(rng, ACL_BOOL, s.out);
    c.attrs = "rtol=" + std::to_string(rtol) + " atol=" + std::to_string(atol) + " equalNan=" + std::to_string(equal_nan);
    const BinP1 p1 = [=](aclTensor* a, aclScalar*, aclTensor* b, aclScalar*, aclTensor* o, uint64_t* w,
                         aclOpExecutor** e) { return aclnnIsCloseGetWorkspaceSize(a, b, rtol, atol, equal_nan, o, w, e); };
    const double r = static_cast<float>(rtol), at = static_cast<float>(atol);
    run_binary(
        rng, c, p1, aclnnIsClose,
        [=](Mismatches& m, const Shape& idx, const Num& a, const Num& b, const Num& actual) {
          const double x = a.as_double(), y = b.as_double();
          bool close;
          if (std::isnan(x) || std::isnan(y)) close = equal_nan && std::isnan(x) && std::isnan(y);
          else if (x == y) close = true;
          else if (std::isinf(x) || std::isinf(y)) close = false;
          else close = std::fabs(x - y) <= at + r * std::fabs(y);
          expect_exact(m, idx, ACL_BOOL, Num::integer(close), actual);
        },
        [&](Tensor& x, Rng& g) { x.fill_random(g, near); }, [&](Tensor& x, Rng& g) { x.fill_random(g, near); });
  }
}

TEST(MathxIsClose, BadArguments) {
  auto run = [](aclDataType a, aclDataType b, aclDataType o, Shape os, const char* mention) {
    Tensor x(TensorDesc(a, {2})), y(TensorDesc(b, {2})), out(TensorDesc(o, os));
    expect_phase1_error(std::string("IsClose self=") + dtype_name(a) + " other=" + dtype_name(b) + " out=" +
                            dtype_name(o) + shape_str(os),
                        ACLNN_ERR_PARAM_INVALID, mention, [&](uint64_t* w, aclOpExecutor** e) {
                          return aclnnIsCloseGetWorkspaceSize(x.get(), y.get(), 1e-5, 1e-8, false, out.get(), w, e);
                        });
  };
  run(ACL_FLOAT, ACL_DOUBLE, ACL_BOOL, {2}, "other");
  run(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {2}, "out");
  run(ACL_FLOAT, ACL_FLOAT, ACL_BOOL, {3}, "out");
}

// ---- IsInTensorScalar -----------------------------------------------------------------------------

TEST(MathxIsInTensorScalar, DtypesInvertAndViews) {
  Rng rng(16);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16,
                                          ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BF16};
  FillOptions small;
  small.small_int = 0.8;
  for (int iter = 0; iter < 100; ++iter) {
    const aclDataType et = pick(rng, types), st = pick(rng, types);
    const bool invert = rng() % 2;
    const Shape shape = random_shape(rng, 0, 4, true);
    BinCase c;
    c.op = "IsInTensorScalar";
    c.a = tensor_operand(rng, et, shape);
    Num v = rng() % 4 ? Num::integer(static_cast<int64_t>(rng() % 9) - 4) : random_value(st, rng);
    if (is_floating(st) && rng() % 3 == 0) v = Num::real(static_cast<double>(rng() % 9) - 4.5);
    c.b = scalar_operand(st, v);
    c.out = random_view(rng, ACL_BOOL, shape);
    c.attrs = std::string("invert=") + (invert ? "true" : "false");
    aclDataType compute = et;
    if (!is_floating(et) && is_floating(st)) compute = promote_types(st, et);
    const BinP1 p1 = [=](aclTensor* a, aclScalar*, aclTensor*, aclScalar* b, aclTensor* o, uint64_t* w,
                         aclOpExecutor** e) { return aclnnIsInTensorScalarGetWorkspaceSize(a, b, false, invert, o, w, e); };
    run_binary(
        rng, c, p1, aclnnIsInTensorScalar,
        [=](Mismatches& m, const Shape& idx, const Num& a, const Num& b, const Num& actual) {
          const Num x = cast(a, compute), y = cast(b, compute);
          const bool eq = is_floating(compute) ? x.f == y.f : x.i == y.i;
          expect_exact(m, idx, ACL_BOOL, Num::integer(eq != invert), actual);
        },
        [&](Tensor& x, Rng& g) { x.fill_random(g, small); });
  }
}

TEST(MathxIsInTensorScalar, BadArguments) {
  Tensor e(TensorDesc(ACL_FLOAT, {2})), b(TensorDesc(ACL_BOOL, {2})), f(TensorDesc(ACL_FLOAT, {2})),
      wrong(TensorDesc(ACL_BOOL, {3})), be(TensorDesc(ACL_BOOL, {2}));
  Scalar s(ScalarDesc(ACL_FLOAT, 1.0)), sb(ScalarDesc(ACL_BOOL, 1.0));
  auto p1 = [](const Tensor& el, const Scalar* sc, const Tensor& out) {
    return [&el, sc, &out](uint64_t* w, aclOpExecutor** ex) {
      return aclnnIsInTensorScalarGetWorkspaceSize(el.get(), sc ? sc->get() : nullptr, false, false, out.get(), w, ex);
    };
  };
  expect_phase1_error("IsInTensorScalar out=float32", ACLNN_ERR_PARAM_INVALID, "out", p1(e, &s, f));
  expect_phase1_error("IsInTensorScalar out shape [3]", ACLNN_ERR_PARAM_INVALID, "out", p1(e, &s, wrong));
  expect_phase1_error("IsInTensorScalar element=bool", ACLNN_ERR_PARAM_INVALID, "element", p1(be, &s, b));
  expect_phase1_error("IsInTensorScalar testElement=bool", ACLNN_ERR_PARAM_INVALID, "testElement", p1(e, &sb, b));
  expect_phase1_error("IsInTensorScalar testElement=null", ACLNN_ERR_PARAM_NULLPTR, "testElement", p1(e, nullptr, b));
}

}  // namespace
