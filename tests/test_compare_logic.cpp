// Comparison, logical, bitwise and binary math ops (Eq/Ne/Gt/Ge/Lt/Le, Equal, LogicalAnd/Or/Xor,
// BitwiseAnd/Or/Xor, Maximum, Minimum, Pow, FloorDivide, Remainder, Fmod, Atan2; every tensor,
// scalar and in-place entry point) against a reference written here from the CANN docs:
//  - dtypes: each op's A2 (910B) dtype lists; result dtype: PyTorch promote_types for tensor (op)
//    tensor; with a scalar: comparisons keep a floating tensor's dtype and otherwise promote; Pow
//    keeps the tensor's dtype unless the scalar is floating or the tensor bool (a float64 scalar
//    with a float32 out computes in float32); FloorDivide, Fmod and the bitwise ops promote as two
//    tensors would; Remainder keeps the tensor's dtype unless the scalar is floating;
//  - operands are cast to the compute dtype first (scalars included); float16/bfloat16 compute in
//    float32 and the result is rounded once to out;
//  - comparisons/logical write 1/0 in out's dtype; logical ops read "!= 0" (NaN is true);
//  - Maximum/Minimum: std::max/std::min with NaN propagating; Pow: std::pow, integer powers wrap
//    and a negative exponent gives 0 unless the base is 1 or -1; FloorDivide: PyTorch's div_floor
//    (integer x // 0 = 0); Remainder: Python's % (integer x % 0 = x, the doc's rule); Fmod: C's
//    fmod (integer x fmod 0 = x); Atan2: atan2(self, other), integer operands in float32.
// Transcendental results (Pow, Atan2) may differ from the double-precision reference by 2 ulp of
// the compute precision; everything else is exact. Every case is one line (Case::str()), printed
// on failure as the repro.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "op_test_util.h"

namespace {

using namespace optest;

// ---- the entry points ----------------------------------------------------------------------------

enum class Fam { kEq, kNe, kGt, kGe, kLt, kLe, kLAnd, kLOr, kLXor, kBAnd, kBOr, kBXor, kMax, kMin, kPow, kFloorDiv,
                 kRem, kFmod, kAtan2 };
// Operand forms: tensor-tensor, tensor-scalar, scalar-tensor, and in place (selfRef first).
enum class Form { kTT, kTS, kST, kITT, kITS };

using Phase1 = aclnnStatus (*)(aclTensor* a, aclTensor* b, aclScalar* as, aclScalar* bs, aclTensor* out, uint64_t* ws,
                               aclOpExecutor** ex);
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

struct Entry {
  const char* name;
  Fam fam;
  Form form;
  Phase1 p1;
  Phase2 p2;
  const char* a_name;
  const char* b_name;

  bool a_scalar() const { return form == Form::kST; }
  bool b_scalar() const { return form == Form::kTS || form == Form::kITS; }
  bool inplace() const { return form == Form::kITT || form == Form::kITS; }
  bool predicate() const { return fam <= Fam::kLXor; }
};

#define PACL_TT(Name, F, A, B)                                                                                        \
  Entry{#Name, Fam::F, Form::kTT,                                                                                     \
        [](aclTensor* a, aclTensor* b, aclScalar*, aclScalar*, aclTensor* o, uint64_t* ws, aclOpExecutor** ex) {      \
          return aclnn##Name##GetWorkspaceSize(a, b, o, ws, ex);                                                      \
        },                                                                                                            \
        aclnn##Name, A, B}
#define PACL_TS(Name, F, A, B)                                                                                        \
  Entry{#Name, Fam::F, Form::kTS,                                                                                     \
        [](aclTensor* a, aclTensor*, aclScalar*, aclScalar* bs, aclTensor* o, uint64_t* ws, aclOpExecutor** ex) {     \
          return aclnn##Name##GetWorkspaceSize(a, bs, o, ws, ex);                                                     \
        },                                                                                                            \
        aclnn##Name, A, B}
#define PACL_ST(Name, F, A, B)                                                                                        \
  Entry{#Name, Fam::F, Form::kST,                                                                                     \
        [](aclTensor*, aclTensor* b, aclScalar* as, aclScalar*, aclTensor* o, uint64_t* ws, aclOpExecutor** ex) {     \
          return aclnn##Name##GetWorkspaceSize(as, b, o, ws, ex);                                                     \
        },                                                                                                            \
        aclnn##Name, A, B}
#define PACL_ITT(Name, F, A, B)                                                                                       \
  Entry{#Name, Fam::F, Form::kITT,                                                                                    \
        [](aclTensor* a, aclTensor* b, aclScalar*, aclScalar*, aclTensor*, uint64_t* ws, aclOpExecutor** ex) {        \
          return aclnn##Name##GetWorkspaceSize(a, b, ws, ex);                                                         \
        },                                                                                                            \
        aclnn##Name, A, B}
#define PACL_ITS(Name, F, A, B)                                                                                       \
  Entry{#Name, Fam::F, Form::kITS,                                                                                    \
        [](aclTensor* a, aclTensor*, aclScalar*, aclScalar* bs, aclTensor*, uint64_t* ws, aclOpExecutor** ex) {       \
          return aclnn##Name##GetWorkspaceSize(a, bs, ws, ex);                                                        \
        },                                                                                                            \
        aclnn##Name, A, B}
#define PACL_CMP(Op, F)                                                                          \
  PACL_TT(Op##Tensor, F, "self", "other"), PACL_TS(Op##Scalar, F, "self", "other"),              \
      PACL_ITT(Inplace##Op##Tensor, F, "selfRef", "other"), PACL_ITS(Inplace##Op##Scalar, F, "selfRef", "other")

const std::vector<Entry>& entries() {
  static const std::vector<Entry> v = {
      PACL_CMP(Eq, kEq),
      PACL_CMP(Ne, kNe),
      PACL_CMP(Gt, kGt),
      PACL_CMP(Ge, kGe),
      PACL_CMP(Lt, kLt),
      PACL_CMP(Le, kLe),
      PACL_TT(LogicalAnd, kLAnd, "self", "other"),
      PACL_ITT(InplaceLogicalAnd, kLAnd, "selfRef", "other"),
      PACL_TT(LogicalOr, kLOr, "self", "other"),
      PACL_ITT(InplaceLogicalOr, kLOr, "selfRef", "other"),
      PACL_TT(LogicalXor, kLXor, "self", "other"),
      PACL_CMP(BitwiseAnd, kBAnd),
      PACL_CMP(BitwiseOr, kBOr),
      PACL_CMP(BitwiseXor, kBXor),
      PACL_TT(BitwiseAndTensorOut, kBAnd, "self", "other"),
      PACL_ITT(InplaceBitwiseAndTensorOut, kBAnd, "self", "other"),
      PACL_TT(Maximum, kMax, "self", "other"),
      PACL_TT(Minimum, kMin, "self", "other"),
      PACL_TS(PowTensorScalar, kPow, "self", "exponent"),
      PACL_ITS(InplacePowTensorScalar, kPow, "self", "exponent"),
      PACL_ST(PowScalarTensor, kPow, "self", "exponent"),
      PACL_TT(PowTensorTensor, kPow, "self", "exponent"),
      PACL_ITT(InplacePowTensorTensor, kPow, "self", "exponent"),
      PACL_TT(FloorDivide, kFloorDiv, "self", "other"),
      PACL_TS(FloorDivides, kFloorDiv, "self", "other"),
      PACL_ITT(InplaceFloorDivide, kFloorDiv, "selfRef", "other"),
      PACL_ITS(InplaceFloorDivides, kFloorDiv, "selfRef", "other"),
      PACL_TT(RemainderTensorTensor, kRem, "self", "other"),
      PACL_TS(RemainderTensorScalar, kRem, "self", "other"),
      PACL_ST(RemainderScalarTensor, kRem, "self", "other"),
      PACL_ITT(InplaceRemainderTensorTensor, kRem, "selfRef", "other"),
      PACL_ITS(InplaceRemainderTensorScalar, kRem, "selfRef", "other"),
      PACL_TT(FmodTensor, kFmod, "self", "other"),
      PACL_ITT(InplaceFmodTensor, kFmod, "selfRef", "other"),
      PACL_TS(FmodScalar, kFmod, "self", "other"),
      PACL_ITS(InplaceFmodScalar, kFmod, "selfRef", "other"),
      PACL_TT(Atan2, kAtan2, "self", "other"),
      PACL_ITT(InplaceAtan2, kAtan2, "selfRef", "other"),
  };
  return v;
}

const Entry& entry(const std::string& name) {
  for (const Entry& e : entries())
    if (name == e.name) return e;
  ADD_FAILURE() << "no entry " << name;
  return entries()[0];
}

// ---- one case as one line ------------------------------------------------------------------------

struct Case {
  const Entry* e = nullptr;
  TensorDesc a, b;    // tensor operands (the form decides which are used)
  ScalarDesc as, bs;  // scalar operands
  TensorDesc out;     // out-of-place forms

  aclDataType a_dtype() const { return e->a_scalar() ? as.dtype : a.dtype; }
  aclDataType b_dtype() const { return e->b_scalar() ? bs.dtype : b.dtype; }
  const TensorDesc& result() const { return e->inplace() ? a : out; }

  std::string str() const {
    std::string r = std::string(e->name) + " " + e->a_name + "=" + (e->a_scalar() ? as.str() : a.str()) + " " +
                    e->b_name + "=" + (e->b_scalar() ? bs.str() : b.str());
    if (!e->inplace()) r += " out=" + out.str();
    return r;
  }
};

Case make_case(const Entry& e, const TensorDesc& a, const TensorDesc& b, const TensorDesc& out = {}) {
  Case c;
  c.e = &e;
  c.a = a;
  c.b = b;
  c.out = out;
  return c;
}
Case make_case_s(const Entry& e, const TensorDesc& t, const ScalarDesc& s, const TensorDesc& out = {}) {
  Case c;
  c.e = &e;
  if (e.a_scalar()) {
    c.as = s;
    c.b = t;
  } else {
    c.a = t;
    c.bs = s;
  }
  c.out = out;
  return c;
}

// ---- the contract: dtypes, checks, values --------------------------------------------------------

// PyTorch's promote_types over the ten compute dtypes, from its rules: bool yields to anything;
// floating wins over integral; float16 with bfloat16 gives float32, otherwise the wider float;
// uint8 with int8 gives int16, otherwise the wider integer.
aclDataType promote_types(aclDataType a, aclDataType b) {
  if (a == b) return a;
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  if (is_floating(a) && is_floating(b)) {
    auto width = [](aclDataType t) { return t == ACL_DOUBLE ? 3 : t == ACL_FLOAT ? 2 : 1; };
    if (width(a) == width(b)) return ACL_FLOAT;
    return width(a) > width(b) ? a : b;
  }
  if (is_floating(a)) return a;
  if (is_floating(b)) return b;
  if (a == ACL_UINT8 || b == ACL_UINT8) {
    const aclDataType o = a == ACL_UINT8 ? b : a;
    return o == ACL_INT8 ? ACL_INT16 : o;
  }
  return int_bits(a) >= int_bits(b) ? a : b;
}

// PyTorch's canCast: no floating -> integral or bool, no integral -> bool.
bool can_cast(aclDataType from, aclDataType to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != ACL_BOOL && to == ACL_BOOL) return false;
  return true;
}

using DtypeSet = std::vector<aclDataType>;
bool has(const DtypeSet& s, aclDataType t) { return std::find(s.begin(), s.end(), t) != s.end(); }
const DtypeSet kAll = compute_dtypes();
const DtypeSet kNumeric = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT16, ACL_INT8,
                           ACL_UINT8};
const DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const DtypeSet kIntBool = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL};
const DtypeSet kRemTypes = {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};
const DtypeSet kFmodTypes = {ACL_DOUBLE, ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8};

struct Masks {
  DtypeSet a, b, out;
};

// The dtypes each entry accepts (the A2 rows of the docs; uint16/32/64 and complex are not in pacl).
Masks masks(const Entry& e) {
  switch (e.fam) {
    case Fam::kBAnd:
    case Fam::kBOr:
    case Fam::kBXor: {
      const bool int_out = (e.fam != Fam::kBXor) && (e.form == Form::kTT);
      return {kIntBool, kIntBool, int_out ? kIntBool : kAll};
    }
    case Fam::kFloorDiv: return {kAll, kAll, e.form == Form::kTT ? kNumeric : kAll};
    case Fam::kRem:
      if (e.form == Form::kTT) return {kAll, kAll, kNumeric};
      return {kRemTypes, kRemTypes, e.form == Form::kST ? kRemTypes : kNumeric};
    case Fam::kFmod: return {kFmodTypes, kFmodTypes, kFmodTypes};
    case Fam::kAtan2: return {kAll, kAll, kFloats};
    default: return {kAll, kAll, kAll};
  }
}

// What phase 1 must answer for a case.
struct Expect {
  int status = ACLNN_SUCCESS;
  std::vector<std::string> names;  // what the error message must name
  aclDataType compute = ACL_FLOAT;
  Shape shape;  // the broadcast shape
};

// Result dtype of pow with one scalar operand (t: the tensor's dtype, s: the scalar's).
aclDataType pow_scalar_dtype(bool scalar_is_base, aclDataType t, aclDataType s, aclDataType out) {
  if (!scalar_is_base) {
    if (is_floating(t)) return t;
    if (s == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
    if (is_floating(s) || t == ACL_BOOL) return promote_types(t, s);
    return t;
  }
  if (t == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
  if (is_floating(t)) return t;
  if (is_floating(s) || t == ACL_BOOL) return promote_types(t, s);
  return t;
}

Expect model(const Case& c) {
  const Entry& e = *c.e;
  Expect x;
  auto fail = [&](std::vector<std::string> names) {
    x.status = ACLNN_ERR_PARAM_INVALID;
    x.names = std::move(names);
    return x;
  };
  const aclDataType ta = c.a_dtype(), tb = c.b_dtype(), to = c.result().dtype;
  const std::string out_name = e.inplace() ? e.a_name : "out";
  // Dtypes, then ranks and shapes, then the op's own dtype rules.
  const Masks m = masks(e);
  if (!has(m.a, ta)) return fail({e.a_name});
  if (!has(m.b, tb)) return fail({e.b_name});
  if (!e.inplace() && !has(m.out, to)) return fail({"out"});
  if (!e.a_scalar() && c.a.shape.size() > 8) return fail({e.a_name});
  if (!e.b_scalar() && c.b.shape.size() > 8) return fail({e.b_name});
  if (e.a_scalar()) x.shape = c.b.shape;
  else if (e.b_scalar()) x.shape = c.a.shape;
  else if (!broadcast_shapes(c.a.shape, c.b.shape, &x.shape)) return fail({e.a_name, e.b_name});
  if (e.inplace() && x.shape != c.a.shape) return fail({e.a_name});
  if (!e.inplace() && c.out.shape != x.shape) return fail({"out"});

  const aclDataType promoted = promote_types(ta, tb);
  switch (e.fam) {
    case Fam::kEq: case Fam::kNe: case Fam::kGt: case Fam::kGe: case Fam::kLt: case Fam::kLe:
      x.compute = (e.b_scalar() && is_floating(ta)) ? ta : promoted;
      return x;
    case Fam::kLAnd: case Fam::kLOr: case Fam::kLXor:
      x.compute = ACL_BOOL;
      return x;
    case Fam::kBAnd: case Fam::kBOr: case Fam::kBXor: case Fam::kMax: case Fam::kMin:
      x.compute = promoted;
      if (!can_cast(promoted, to)) return fail({out_name});
      return x;
    case Fam::kPow:
      if (ta == ACL_BOOL && tb == ACL_BOOL) return fail({e.a_name, e.b_name});
      x.compute = e.a_scalar() ? pow_scalar_dtype(true, tb, ta, to)
                  : e.b_scalar() ? pow_scalar_dtype(false, ta, tb, to) : promoted;
      if (!can_cast(x.compute, to)) return fail({out_name});
      return x;
    case Fam::kFloorDiv:
      if (!can_cast(promoted, to)) return fail({out_name});
      x.compute = promoted == ACL_BOOL ? ACL_FLOAT : promoted;
      return x;
    case Fam::kRem: {
      auto tensor_scalar = [](aclDataType t, aclDataType s) {
        if (is_floating(t)) return t;
        return (is_floating(s) || t == ACL_BOOL) ? promote_types(t, s) : t;
      };
      x.compute = e.a_scalar() ? tensor_scalar(tb, ta) : e.b_scalar() ? tensor_scalar(ta, tb) : promoted;
      if (!has(kRemTypes, x.compute)) return fail({"promoted"});
      if (!can_cast(x.compute, to)) return fail({out_name});
      return x;
    }
    case Fam::kFmod:
      x.compute = promoted;
      if (!has(kFmodTypes, promoted)) return fail({"promoted"});
      if (!can_cast(promoted, to)) return fail({out_name});
      return x;
    case Fam::kAtan2:
      x.compute = is_floating(promoted) ? promoted : ACL_FLOAT;
      return x;
  }
  return x;
}

// A natural out dtype for an (a, b) dtype pair: the result dtype, bool for predicates.
aclDataType natural_out(const Entry& e, aclDataType ta, aclDataType tb) {
  const aclDataType p = promote_types(ta, tb);
  switch (e.fam) {
    case Fam::kEq: case Fam::kNe: case Fam::kGt: case Fam::kGe: case Fam::kLt: case Fam::kLe:
    case Fam::kLAnd: case Fam::kLOr: case Fam::kLXor:
      return ACL_BOOL;
    case Fam::kAtan2: return is_floating(p) ? p : ACL_FLOAT;
    case Fam::kFloorDiv: return p == ACL_BOOL && e.form == Form::kTT ? ACL_FLOAT : p;
    case Fam::kPow:
      if (e.a_scalar()) return pow_scalar_dtype(true, tb, ta, ACL_DOUBLE);
      if (e.b_scalar()) return pow_scalar_dtype(false, ta, tb, ACL_DOUBLE);
      return p;
    case Fam::kRem:
      if (e.a_scalar()) return is_floating(tb) ? tb : is_floating(ta) ? promote_types(tb, ta) : tb;
      if (e.b_scalar()) return is_floating(ta) ? ta : is_floating(tb) ? promote_types(ta, tb) : ta;
      return p;
    default: return p;
  }
}

// PyTorch's div_floor for floating types.
template <typename F>
F floor_divide(F a, F b) {
  if (b == 0) return a / b;
  const F mod = std::fmod(a, b);
  F div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= F(1);
  if (div == 0) return std::copysign(F(0), a / b);
  F fl = std::floor(div);
  if (div - fl > F(0.5)) fl += F(1);
  return fl;
}

template <typename F>
Num reference_float(Fam f, F x, F y) {
  switch (f) {
    case Fam::kMax:
      if (std::isnan(x) || std::isnan(y)) return Num::real(std::isnan(x) ? x : y);
      return Num::real(x < y ? y : x);
    case Fam::kMin:
      if (std::isnan(x) || std::isnan(y)) return Num::real(std::isnan(x) ? x : y);
      return Num::real(y < x ? y : x);
    case Fam::kPow: return Num::real(static_cast<F>(std::pow(static_cast<double>(x), static_cast<double>(y))));
    case Fam::kFloorDiv: return Num::real(floor_divide(x, y));
    case Fam::kRem: {
      F m = std::fmod(x, y);
      if (m != 0 && ((y < 0) != (m < 0))) m += y;
      return Num::real(m);
    }
    case Fam::kFmod: return Num::real(std::fmod(x, y));
    case Fam::kAtan2: return Num::real(static_cast<F>(std::atan2(static_cast<double>(x), static_cast<double>(y))));
    default: break;
  }
  ADD_FAILURE() << "reference_float: not a floating family";
  return Num::real(0);
}

// Integer families on values already cast to the integral (or bool) compute dtype t.
Num reference_int(Fam f, aclDataType t, int64_t x, int64_t y) {
  const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  uint64_t r = 0;
  switch (f) {
    case Fam::kBAnd: r = ux & uy; break;
    case Fam::kBOr: r = ux | uy; break;
    case Fam::kBXor: r = ux ^ uy; break;
    case Fam::kMax: r = static_cast<uint64_t>(x < y ? y : x); break;
    case Fam::kMin: r = static_cast<uint64_t>(y < x ? y : x); break;
    case Fam::kPow:
      if (y < 0) {
        r = x == 1 ? 1 : x == -1 ? ((y & 1) ? ~uint64_t{0} : 1) : 0;
      } else {
        r = 1;
        uint64_t base = ux;
        for (uint64_t e = uy; e != 0; e >>= 1) {
          if (e & 1) r *= base;
          base *= base;
        }
      }
      break;
    case Fam::kFloorDiv:
      if (y == 0) r = 0;
      else if (y == -1) r = 0 - ux;
      else {
        int64_t q = x / y;
        if (x % y != 0 && ((x < 0) != (y < 0))) --q;
        r = static_cast<uint64_t>(q);
      }
      break;
    case Fam::kRem:
      if (y == 0) r = ux;
      else if (y == -1) r = 0;
      else {
        int64_t m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) m += y;
        r = static_cast<uint64_t>(m);
      }
      break;
    case Fam::kFmod: r = y == 0 ? ux : y == -1 ? 0 : static_cast<uint64_t>(x % y); break;
    default: ADD_FAILURE() << "reference_int: not an integer family"; break;
  }
  return Num::integer(wrap_int(r, t));
}

// The expected value of one element in the compute dtype; a and b are the operands already cast
// to it, a_raw/b_raw the values before the cast.
Num reference(Fam f, aclDataType compute, const Num& a, const Num& b, const Num& a_raw, const Num& b_raw) {
  auto cmp = [&](auto x, auto y) -> bool {
    switch (f) {
      case Fam::kEq: return x == y;
      case Fam::kNe: return x != y;
      case Fam::kGt: return x > y;
      case Fam::kGe: return x >= y;
      case Fam::kLt: return x < y;
      default: return x <= y;
    }
  };
  switch (f) {
    case Fam::kEq: case Fam::kNe: case Fam::kGt: case Fam::kGe: case Fam::kLt: case Fam::kLe:
      return Num::integer(is_floating(compute) ? cmp(a.f, b.f) : cmp(a.i, b.i));
    case Fam::kLAnd: return Num::integer(a_raw.nonzero() && b_raw.nonzero());
    case Fam::kLOr: return Num::integer(a_raw.nonzero() || b_raw.nonzero());
    case Fam::kLXor: return Num::integer(a_raw.nonzero() != b_raw.nonzero());
    default: break;
  }
  if (compute == ACL_DOUBLE) return reference_float<double>(f, a.f, b.f);
  if (is_floating(compute)) return reference_float<float>(f, static_cast<float>(a.f), static_cast<float>(b.f));
  return reference_int(f, compute, a.i, b.i);
}

// Allowed distance in ulps between result and reference, and the dtype the ulps are counted in.
int tolerance(Fam f) { return (f == Fam::kPow || f == Fam::kAtan2) ? 2 : 0; }
aclDataType ulp_dtype(aclDataType compute, aclDataType out) {
  if (out == ACL_DOUBLE && compute != ACL_DOUBLE) return ACL_FLOAT;  // computed in float32
  return out;
}

// ---- running a case --------------------------------------------------------------------------------

// Strides of operand d seen from the broadcast shape (right-aligned; broadcast dims get 0).
Shape broadcast_view_strides(const TensorDesc& d, const Shape& shape) {
  Shape s(shape.size(), 0);
  const Shape st = d.view_strides();
  const size_t lead = shape.size() - d.shape.size();
  for (size_t i = 0; i < d.shape.size(); ++i) s[lead + i] = d.shape[i] == 1 ? 0 : st[i];
  return s;
}

struct CaseRun {
  std::unique_ptr<Tensor> a, b, out;
  std::unique_ptr<Scalar> as, bs;
};

CaseRun make_args(const Case& c) {
  CaseRun r;
  if (c.e->a_scalar()) r.as = std::make_unique<Scalar>(c.as);
  else r.a = std::make_unique<Tensor>(c.a);
  if (c.e->b_scalar()) r.bs = std::make_unique<Scalar>(c.bs);
  else r.b = std::make_unique<Tensor>(c.b);
  if (!c.e->inplace()) r.out = std::make_unique<Tensor>(c.out);
  return r;
}

aclnnStatus call_phase1(const Case& c, const CaseRun& r, uint64_t* ws, aclOpExecutor** ex) {
  return c.e->p1(r.a ? r.a->get() : nullptr, r.b ? r.b->get() : nullptr, r.as ? r.as->get() : nullptr,
                 r.bs ? r.bs->get() : nullptr, r.out ? r.out->get() : nullptr, ws, ex);
}

// Phase 2 + synchronize; false (with a failure recorded) on any error.
bool call_phase2(const Case& c, uint64_t ws, aclOpExecutor* ex) {
  void* workspace = nullptr;
  if (ws > 0 && aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    ADD_FAILURE() << c.str() << ": aclrtMalloc(workspace " << ws << ") failed";
    return false;
  }
  const aclnnStatus st = c.e->p2(workspace, ws, ex, stream());
  const aclError sync = aclrtSynchronizeStream(stream());
  if (workspace) aclrtFree(workspace);
  if (st != ACLNN_SUCCESS || sync != ACL_SUCCESS) {
    ADD_FAILURE() << c.str() << ": phase 2 returned " << st << ", synchronize " << sync << ": " << aclGetRecentErrMsg();
    return false;
  }
  return true;
}

void check_error(const Case& c, const Expect& x, aclnnStatus st) {
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_EQ(st, x.status) << c.str() << ": " << msg;
  EXPECT_NE(msg.find(std::string("aclnn") + c.e->name), std::string::npos) << c.str() << ": message: " << msg;
  for (const std::string& n : x.names)
    EXPECT_NE(msg.find(n), std::string::npos) << c.str() << ": message should name '" << n << "': " << msg;
}

struct Stats {
  int64_t cases = 0, rejected = 0, elements = 0;
};

// Runs c through both phases with seeded random inputs (or the inputs set by `prepare`) and checks
// the status, the message, every output element against the reference, that inputs are unchanged
// and that nothing outside the output view was written.
void run_case(const Case& c, uint64_t seed, Stats* stats = nullptr, const FillOptions& fill = {}) {
  const Entry& e = *c.e;
  const Expect x = model(c);
  Rng rng(seed);
  CaseRun r = make_args(c);
  // Random values (special values included); tensors of dtypes without a host representation here
  // stay zero (their cases are rejected in phase 1).
  for (Tensor* t : {r.a.get(), r.b.get(), r.out.get()})
    if (t && is_compute_dtype(t->desc().dtype)) t->fill_random(rng, fill);  // garbage the op must overwrite (and only inside the view)
  const std::vector<uint8_t> a_before = r.a ? r.a->host() : std::vector<uint8_t>();
  const std::vector<uint8_t> b_before = r.b ? r.b->host() : std::vector<uint8_t>();

  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = call_phase1(c, r, &ws, &ex);
  if (stats) ++stats->cases;
  if (x.status != ACLNN_SUCCESS || st != ACLNN_SUCCESS) {
    if (stats) ++stats->rejected;
    if (st == ACLNN_SUCCESS) {
      ADD_FAILURE() << c.str() << ": phase 1 succeeded, expected " << x.status << " naming "
                    << (x.names.empty() ? "" : x.names[0]);
      aclDestroyAclOpExecutor(ex);
    } else {
      check_error(c, x, st);
    }
    return;
  }
  if (numel(x.shape) == 0) {
    EXPECT_EQ(ws, 0u) << c.str() << ": an empty tensor needs no workspace";
  }
  if (!call_phase2(c, ws, ex)) return;

  Tensor& res = e.inplace() ? *r.a : *r.out;
  const std::vector<uint8_t> res_before = e.inplace() ? a_before : res.host();
  res.download();
  if (r.a && !e.inplace()) {
    r.a->download();
    EXPECT_TRUE(r.a->host() == a_before) << c.str() << ": " << e.a_name << " was modified";
  }
  if (r.b) {
    r.b->download();
    EXPECT_TRUE(r.b->host() == b_before) << c.str() << ": " << e.b_name << " was modified";
  }
  const std::string outside = writes_outside_view(res, res_before);
  EXPECT_TRUE(outside.empty()) << c.str() << ": wrote outside the output view:" << outside;

  const Shape a_st = e.a_scalar() ? Shape() : broadcast_view_strides(c.a, x.shape);
  const Shape b_st = e.b_scalar() ? Shape() : broadcast_view_strides(c.b, x.shape);
  const aclDataType out_t = c.result().dtype;
  const Shape out_st = c.result().view_strides();
  const int tol = is_floating(out_t) ? tolerance(e.fam) : 0;
  const aclDataType ulp_t = ulp_dtype(x.compute, out_t);
  int shown = 0, bad = 0;
  std::string report;
  for_each_index(x.shape, [&](const Shape& idx) {
    int64_t ka = c.a.offset, kb = c.b.offset, kout = c.result().offset;
    for (size_t i = 0; i < idx.size(); ++i) {
      if (!e.a_scalar()) ka += idx[i] * a_st[i];
      if (!e.b_scalar()) kb += idx[i] * b_st[i];
      kout += idx[i] * out_st[i];
    }
    const Num va = e.a_scalar() ? c.as.value : load(c.a.dtype, a_before.data() + ka * dtype_size(c.a.dtype));
    const Num vb = e.b_scalar() ? c.bs.value : load(c.b.dtype, b_before.data() + kb * dtype_size(c.b.dtype));
    const Num want = cast(reference(e.fam, x.compute, cast(va, x.compute), cast(vb, x.compute), va, vb), out_t);
    const Num got = load(out_t, res.host().data() + kout * dtype_size(out_t));
    if (want.undefined || same_value(out_t, want, got)) return;
    if (tol > 0 && !std::isnan(want.f) && !std::isnan(got.f) && ulp_distance(ulp_t, want.f, got.f) <= uint64_t(tol))
      return;
    ++bad;
    if (shown++ < 6)
      report += "\n  at " + shape_str(idx) + ": " + num_str(va) + ", " + num_str(vb) + " -> got " + num_str(got) +
                ", expected " + num_str(want);
  });
  if (stats) stats->elements += numel(x.shape);
  EXPECT_EQ(bad, 0) << c.str() << " (compute " << dtype_name(x.compute) << "): " << bad << " of " << numel(x.shape)
                    << " elements differ" << report;
}

// Runs a valid case with the given input values (row-major over each tensor operand's view) and
// returns the result values (row-major over the result view).
std::vector<Num> run_values(const Case& c, const std::vector<Num>& a_vals, const std::vector<Num>& b_vals = {}) {
  CaseRun r = make_args(c);
  size_t k = 0;
  if (r.a) {
    for_each_index(c.a.shape, [&](const Shape& idx) { r.a->set(idx, a_vals.at(k++)); });
    r.a->upload();
  }
  k = 0;
  if (r.b) {
    const std::vector<Num>& bv = r.a ? b_vals : a_vals;
    for_each_index(c.b.shape, [&](const Shape& idx) { r.b->set(idx, bv.at(k++)); });
    r.b->upload();
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = call_phase1(c, r, &ws, &ex);
  if (st != ACLNN_SUCCESS) {
    ADD_FAILURE() << c.str() << ": phase 1 returned " << st << ": " << aclGetRecentErrMsg();
    return {};
  }
  if (!call_phase2(c, ws, ex)) return {};
  Tensor& res = c.e->inplace() ? *r.a : *r.out;
  res.download();
  std::vector<Num> v;
  for_each_index(c.result().shape, [&](const Shape& idx) { v.push_back(res.at(idx)); });
  return v;
}

// Expects run_values(c, ...) to give exactly `want` (each converted to the result dtype first).
void expect_values(const Case& c, const std::vector<Num>& a_vals, const std::vector<Num>& b_vals,
                   const std::vector<Num>& want) {
  const std::vector<Num> got = run_values(c, a_vals, b_vals);
  ASSERT_EQ(got.size(), want.size()) << c.str();
  const aclDataType out_t = c.result().dtype;
  for (size_t i = 0; i < want.size(); ++i) {
    const Num w = cast(want[i], out_t);
    EXPECT_TRUE(same_value(out_t, w, got[i])) << c.str() << ": element " << i << ": got " << num_str(got[i])
                                              << ", expected " << num_str(w);
  }
}

std::vector<Num> reals(std::initializer_list<double> v) {
  std::vector<Num> r;
  for (double x : v) r.push_back(Num::real(x));
  return r;
}
std::vector<Num> ints(std::initializer_list<int64_t> v) {
  std::vector<Num> r;
  for (int64_t x : v) r.push_back(Num::integer(x));
  return r;
}

const double kInf = HUGE_VAL;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kPi = 3.14159265358979323846;

uint64_t seed_of(uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t v : {a, b, c, d}) h = (h ^ v) * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
  return h;
}

std::string entry_name(const ::testing::TestParamInfo<std::string>& p) { return p.param; }
std::vector<std::string> entry_names() {
  std::vector<std::string> v;
  for (const Entry& e : entries()) v.push_back(e.name);
  return v;
}

// ---- dtype sweeps: every (a, b) dtype pair of every entry, then every out dtype ----------------

class CompareLogicDtypes : public ::testing::TestWithParam<std::string> {};

TEST_P(CompareLogicDtypes, AllPairs) {
  const Entry& e = entry(GetParam());
  Rng rng(seed_of(1, std::hash<std::string>()(e.name)));
  Stats s;
  int k = 0;
  for (aclDataType ta : compute_dtypes())
    for (aclDataType tb : compute_dtypes()) {
      ++k;
      const aclDataType to = natural_out(e, ta, tb);
      if (e.a_scalar()) {
        run_case(make_case_s(e, {tb, {2, 3, 4}}, ScalarDesc(ta, random_value(ta, rng)), {to, {2, 3, 4}}), seed_of(2, k),
                 &s);
      } else if (e.b_scalar()) {
        run_case(make_case_s(e, {ta, {2, 3, 4}}, ScalarDesc(tb, random_value(tb, rng)), {to, {2, 3, 4}}), seed_of(3, k),
                 &s);
      } else {
        run_case(make_case(e, {ta, {2, 3, 4}}, {tb, {3, 1}}, {to, {2, 3, 4}}), seed_of(4, k), &s);
      }
    }
  EXPECT_EQ(s.cases, 100);
  RecordProperty("rejected", static_cast<int>(s.rejected));
}

// Entries with an out tensor (the result dtype of an in-place op is selfRef's).
std::vector<std::string> out_entry_names() {
  std::vector<std::string> v;
  for (const Entry& e : entries())
    if (!e.inplace()) v.push_back(e.name);
  return v;
}

class CompareLogicOutDtypes : public ::testing::TestWithParam<std::string> {};

TEST_P(CompareLogicOutDtypes, OutDtypes) {
  const Entry& e = entry(GetParam());
  Rng rng(seed_of(5, std::hash<std::string>()(e.name)));
  int k = 0;
  const std::vector<std::pair<aclDataType, aclDataType>> pairs = {
      {ACL_FLOAT, ACL_INT32}, {ACL_INT32, ACL_INT64}, {ACL_INT8, ACL_UINT8}, {ACL_BOOL, ACL_BOOL}, {ACL_FLOAT16, ACL_BF16}};
  for (const auto& p : pairs)
    for (aclDataType to : compute_dtypes()) {
      ++k;
      if (e.a_scalar())
        run_case(make_case_s(e, {p.second, {5}}, ScalarDesc(p.first, random_value(p.first, rng)), {to, {5}}), seed_of(6, k));
      else if (e.b_scalar())
        run_case(make_case_s(e, {p.first, {5}}, ScalarDesc(p.second, random_value(p.second, rng)), {to, {5}}), seed_of(7, k));
      else run_case(make_case(e, {p.first, {5}}, {p.second, {5}}, {to, {5}}), seed_of(8, k));
    }
}

INSTANTIATE_TEST_SUITE_P(CompareLogic, CompareLogicDtypes, ::testing::ValuesIn(entry_names()), entry_name);
INSTANTIATE_TEST_SUITE_P(CompareLogic, CompareLogicOutDtypes, ::testing::ValuesIn(out_entry_names()), entry_name);

// ---- shapes and layouts ------------------------------------------------------------------------------

// A dtype pair each entry accepts, for the layout tests.
std::pair<aclDataType, aclDataType> layout_dtypes(const Entry& e, int variant) {
  switch (e.fam) {
    case Fam::kBAnd: case Fam::kBOr: case Fam::kBXor:
      return variant ? std::make_pair(ACL_INT16, ACL_INT16) : std::make_pair(ACL_INT32, ACL_INT8);
    case Fam::kRem: case Fam::kFmod:
      return variant ? std::make_pair(ACL_INT32, ACL_INT32) : std::make_pair(ACL_FLOAT16, ACL_FLOAT);
    default:
      return variant ? std::make_pair(ACL_INT32, ACL_INT64) : std::make_pair(ACL_FLOAT16, ACL_FLOAT);
  }
}

// Runs e on a layout: a, b (shape/strides/offset) and out's layout; dtypes from layout_dtypes and
// natural_out. In place, the layout's `a` is the result.
void run_layout(const Entry& e, TensorDesc a, TensorDesc b, TensorDesc out, uint64_t seed) {
  for (int variant = 0; variant < 2; ++variant) {
    const auto d = layout_dtypes(e, variant);
    a.dtype = d.first;
    b.dtype = d.second;
    out.dtype = natural_out(e, a.dtype, b.dtype);
    if (e.inplace() && e.fam == Fam::kFloorDiv) a.dtype = b.dtype = d.second;  // the result must cast to selfRef
    if (e.inplace() && (e.fam == Fam::kPow || e.fam == Fam::kMax || e.fam == Fam::kRem || e.fam == Fam::kFmod ||
                        e.fam == Fam::kBAnd || e.fam == Fam::kBOr || e.fam == Fam::kBXor))
      a.dtype = b.dtype = d.second;
    if (e.a_scalar()) run_case(make_case_s(e, b, ScalarDesc(d.first, 3.0), out), seed + variant);
    else if (e.b_scalar()) run_case(make_case_s(e, a, ScalarDesc(d.second, -2.0), out), seed + variant);
    else run_case(make_case(e, a, b, out), seed + variant);
  }
}

class CompareLogicLayouts : public ::testing::TestWithParam<std::string> {};

TEST_P(CompareLogicLayouts, StridedOffsetBroadcastEmptyZeroDim) {
  const Entry& e = entry(GetParam());
  const aclDataType x = ACL_FLOAT;  // replaced by run_layout
  uint64_t seed = seed_of(9, std::hash<std::string>()(e.name));
  // Transposed input, strided output with gaps and an offset.
  run_layout(e, {x, {4, 5}, {1, 4}}, {x, {4, 5}, {5, 1}, 2}, {x, {4, 5}, {12, 2}, 3}, seed += 2);
  // Broadcast of the second operand, over chunk boundaries (the inner dim is longer than 512).
  run_layout(e, {x, {3, 700}, {}, 5}, {x, {700}}, {x, {3, 700}}, seed += 2);
  // A strided inner dim over chunk boundaries.
  run_layout(e, {x, {1100}, {3}}, {x, {1100}, {2}, 1}, {x, {1100}, {2}}, seed += 2);
  // 0-d tensors, and a 0-d operand broadcast against a vector.
  run_layout(e, {x, {}}, {x, {}}, {x, {}}, seed += 2);
  run_layout(e, {x, {6}}, {x, {}}, {x, {6}}, seed += 2);
  // Empty tensors.
  run_layout(e, {x, {0, 3}}, {x, {3}}, {x, {0, 3}}, seed += 2);
  run_layout(e, {x, {2, 0}}, {x, {1, 0}}, {x, {2, 0}}, seed += 2);
  // Rank 8.
  run_layout(e, {x, {2, 1, 2, 1, 2, 1, 2, 3}}, {x, {1, 2, 1, 1, 3}}, {x, {2, 1, 2, 1, 2, 2, 2, 3}}, seed += 2);
  if (!e.inplace() && !e.a_scalar() && !e.b_scalar()) {
    // Both operands broadcast.
    run_layout(e, {x, {3, 1}}, {x, {1, 4}}, {x, {3, 4}}, seed += 2);
    run_layout(e, {x, {2, 1, 3}}, {x, {4, 1}}, {x, {2, 4, 3}}, seed += 2);
  }
}

INSTANTIATE_TEST_SUITE_P(CompareLogic, CompareLogicLayouts, ::testing::ValuesIn(entry_names()), entry_name);

// Special values of every floating dtype against each other (all pairs), every tensor-tensor entry.
TEST(CompareLogic, SpecialValuePairs) {
  for (const Entry& e : entries()) {
    if (e.form != Form::kTT) continue;
    for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT8}) {
      const std::vector<Num> sv = special_values(t);
      const int64_t n = static_cast<int64_t>(sv.size());
      Case c = make_case(e, {t, {n, 1}}, {t, {1, n}}, {natural_out(e, t, t), {n, n}});
      if (model(c).status != ACLNN_SUCCESS) continue;
      const aclDataType compute = model(c).compute;
      std::vector<Num> want;
      for (const Num& x : sv)
        for (const Num& y : sv) want.push_back(reference(e.fam, compute, cast(x, compute), cast(y, compute), x, y));
      const std::vector<Num> got = run_values(c, sv, sv);
      ASSERT_EQ(got.size(), want.size()) << c.str();
      const aclDataType out_t = c.out.dtype;
      for (size_t i = 0; i < want.size(); ++i) {
        const Num w = cast(want[i], out_t);
        if (w.undefined || same_value(out_t, w, got[i])) continue;
        if (tolerance(e.fam) && !std::isnan(w.f) && !std::isnan(got[i].f) &&
            ulp_distance(ulp_dtype(compute, out_t), w.f, got[i].f) <= 2)
          continue;
        ADD_FAILURE() << c.str() << ": " << num_str(sv[i / sv.size()]) << ", " << num_str(sv[i % sv.size()])
                      << " -> got " << num_str(got[i]) << ", expected " << num_str(w);
      }
    }
  }
}

// The same tensor as both operands (in place: selfRef is also other).
TEST(CompareLogic, OtherIsSelf) {
  for (const char* name : {"InplaceEqTensor", "InplaceGtTensor", "InplaceLogicalXor", "InplaceBitwiseXorTensor",
                           "InplacePowTensorTensor", "InplaceRemainderTensorTensor", "InplaceAtan2", "EqTensor"}) {
    if (std::string(name) == "InplaceLogicalXor") continue;  // LogicalXor has no in-place form
    const Entry& e = entry(name);
    const aclDataType t = (e.fam == Fam::kBXor) ? ACL_INT32 : ACL_FLOAT;
    Tensor a(TensorDesc(t, {7}));
    const std::vector<Num> vals = t == ACL_INT32 ? ints({1, -2, 3, 0, 5, 7, -9}) : reals({1.5, -2, 3, 0, kNaN, kInf, -0.5});
    for (int64_t i = 0; i < 7; ++i) a.set({i}, vals[static_cast<size_t>(i)]);
    a.upload();
    std::unique_ptr<Tensor> out;
    if (!e.inplace()) out = std::make_unique<Tensor>(TensorDesc(ACL_BOOL, {7}));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    Case c = make_case(e, a.desc(), a.desc(), out ? out->desc() : TensorDesc());
    ASSERT_EQ(e.p1(a.get(), a.get(), nullptr, nullptr, out ? out->get() : nullptr, &ws, &ex), ACLNN_SUCCESS)
        << name << ": " << aclGetRecentErrMsg();
    ASSERT_TRUE(call_phase2(c, ws, ex));
    Tensor& res = out ? *out : a;
    res.download();
    const aclDataType compute = model(c).compute;
    for (int64_t i = 0; i < 7; ++i) {
      const Num v = vals[static_cast<size_t>(i)];
      const Num w = cast(reference(e.fam, compute, cast(v, compute), cast(v, compute), v, v), res.desc().dtype);
      const Num got = res.at({i});
      EXPECT_TRUE(same_value(res.desc().dtype, w, got) ||
                  (tolerance(e.fam) && !std::isnan(w.f) && ulp_distance(res.desc().dtype, w.f, got.f) <= 2))
          << name << " element " << i << ": got " << num_str(got) << ", expected " << num_str(w);
    }
  }
}

// ---- semantics, spelled out -----------------------------------------------------------------------

TEST(CompareLogicSemantics, ComparisonsWriteOneAndZeroInOutDtype) {
  expect_values(make_case(entry("GtTensor"), {ACL_FLOAT, {4}}, {ACL_FLOAT, {4}}, {ACL_FLOAT16, {4}}),
                reals({1, 2, kNaN, -0.0}), reals({0, 2, 1, 0.0}), reals({1, 0, 0, 0}));
  expect_values(make_case(entry("InplaceLeTensor"), {ACL_FLOAT, {4}}, {ACL_INT32, {4}}), reals({1.5, 2, kNaN, -kInf}),
                ints({1, 2, 0, -7}), reals({0, 1, 0, 1}));
  expect_values(make_case(entry("NeTensor"), {ACL_FLOAT, {2}}, {ACL_FLOAT, {2}}, {ACL_INT64, {2}}), reals({kNaN, 1}),
                reals({kNaN, 1}), ints({1, 0}));
  expect_values(make_case_s(entry("InplaceEqScalar"), {ACL_INT8, {3}}, ScalarDesc(ACL_INT64, 5)), ints({5, -5, 0}), {},
                ints({1, 0, 0}));
}

TEST(CompareLogicSemantics, IntegerScalarsOutOfRangeCompareExactly) {
  // int8 against 300 and uint8 against -1: no wrapping of the scalar.
  expect_values(make_case_s(entry("GtScalar"), {ACL_INT8, {3}}, ScalarDesc(ACL_INT64, 300), {ACL_BOOL, {3}}),
                ints({127, -128, 44}), {}, ints({0, 0, 0}));
  expect_values(make_case_s(entry("LtScalar"), {ACL_UINT8, {2}}, ScalarDesc(ACL_INT64, -1), {ACL_BOOL, {2}}),
                ints({0, 255}), {}, ints({0, 0}));
  expect_values(make_case_s(entry("EqScalar"), {ACL_INT32, {2}}, ScalarDesc(ACL_INT64, int64_t{1} << 32),
                            {ACL_BOOL, {2}}),
                ints({0, 1}), {}, ints({0, 0}));
  // An integer tensor against a fractional scalar compares in floating point.
  expect_values(make_case_s(entry("GeScalar"), {ACL_INT32, {3}}, ScalarDesc(ACL_DOUBLE, 2.5), {ACL_BOOL, {3}}),
                ints({2, 3, -3}), {}, ints({0, 1, 0}));
}

TEST(CompareLogicSemantics, FloatingTensorsRoundTheScalar) {
  // 0.1 as a float32 scalar equals the float32 tensor value 0.1f; float16 rounds 0.1 too.
  expect_values(make_case_s(entry("EqScalar"), {ACL_FLOAT, {1}}, ScalarDesc(ACL_DOUBLE, 0.1), {ACL_BOOL, {1}}),
                reals({static_cast<float>(0.1)}), {}, ints({1}));
  expect_values(make_case_s(entry("EqScalar"), {ACL_FLOAT16, {1}}, ScalarDesc(ACL_DOUBLE, 0.1), {ACL_BOOL, {1}}),
                reals({half_value(half_bits(0.1f))}), {}, ints({1}));
  expect_values(make_case_s(entry("LtScalar"), {ACL_BF16, {2}}, ScalarDesc(ACL_DOUBLE, kInf), {ACL_BOOL, {2}}),
                reals({kInf, 1e30}), {}, ints({0, 1}));
}

TEST(CompareLogicSemantics, Logical) {
  expect_values(make_case(entry("LogicalAnd"), {ACL_FLOAT, {5}}, {ACL_INT8, {5}}, {ACL_BOOL, {5}}),
                reals({kNaN, 0.0, -0.0, 1e-45, 2}), ints({1, 1, 1, 1, 0}), ints({1, 0, 0, 1, 0}));
  expect_values(make_case(entry("LogicalOr"), {ACL_BF16, {3}}, {ACL_DOUBLE, {3}}, {ACL_FLOAT, {3}}),
                reals({0, 0, -kInf}), reals({0, 1e-300, 0}), reals({0, 1, 1}));
  expect_values(make_case(entry("LogicalXor"), {ACL_INT64, {4}}, {ACL_BOOL, {4}}, {ACL_INT32, {4}}),
                ints({0, 7, 0, -1}), ints({0, 0, 1, 1}), ints({0, 1, 1, 0}));
  expect_values(make_case(entry("InplaceLogicalAnd"), {ACL_INT16, {3}}, {ACL_FLOAT16, {3}}), ints({5, 0, -3}),
                reals({0.5, 1, 0}), ints({1, 0, 0}));
}

TEST(CompareLogicSemantics, Bitwise) {
  expect_values(make_case(entry("BitwiseAndTensor"), {ACL_INT8, {3}}, {ACL_INT8, {3}}, {ACL_INT8, {3}}),
                ints({-1, 0x5a, -128}), ints({0x0f, 0x3c, -1}), ints({0x0f, 0x18, -128}));
  // A scalar promotes like a tensor: int8 & int64(0x100) computes in int64.
  expect_values(make_case_s(entry("BitwiseAndScalar"), {ACL_INT8, {2}}, ScalarDesc(ACL_INT64, 0x100), {ACL_INT64, {2}}),
                ints({-1, 1}), {}, ints({0x100, 0}));
  expect_values(make_case_s(entry("BitwiseOrScalar"), {ACL_BOOL, {2}}, ScalarDesc(ACL_BOOL, 0), {ACL_BOOL, {2}}),
                ints({1, 0}), {}, ints({1, 0}));
  expect_values(make_case(entry("BitwiseXorTensor"), {ACL_UINT8, {2}}, {ACL_INT8, {2}}, {ACL_FLOAT, {2}}),
                ints({255, 1}), ints({-1, 3}), reals({-256, 2}));
  expect_values(make_case_s(entry("InplaceBitwiseXorScalar"), {ACL_INT32, {2}}, ScalarDesc(ACL_INT64, -1)),
                ints({0, 5}), {}, ints({-1, -6}));
}

TEST(CompareLogicSemantics, MaximumMinimum) {
  expect_values(make_case(entry("Maximum"), {ACL_FLOAT, {5}}, {ACL_FLOAT, {5}}, {ACL_FLOAT, {5}}),
                reals({kNaN, 1, -0.0, 0.0, -kInf}), reals({1, kNaN, 0.0, -0.0, -1}), reals({kNaN, kNaN, -0.0, 0.0, -1}));
  expect_values(make_case(entry("Minimum"), {ACL_INT8, {3}}, {ACL_UINT8, {3}}, {ACL_INT16, {3}}), ints({-128, 5, 127}),
                ints({255, 3, 200}), ints({-128, 3, 127}));
  expect_values(make_case(entry("Minimum"), {ACL_BOOL, {3}}, {ACL_BOOL, {3}}, {ACL_BOOL, {3}}), ints({1, 0, 1}),
                ints({1, 1, 0}), ints({1, 0, 0}));
}

TEST(CompareLogicSemantics, Pow) {
  const Entry& tt = entry("PowTensorTensor");
  // Integer powers: negative exponents, 0^0, wrapping.
  expect_values(make_case(tt, {ACL_INT32, {7}}, {ACL_INT32, {7}}, {ACL_INT32, {7}}), ints({2, 1, -1, -1, 0, 3, -2}),
                ints({-1, -5, -3, -4, 0, 21, 31}), ints({0, 1, -1, 1, 1, 1870418611, int64_t{-2147483647} - 1}));
  expect_values(make_case(tt, {ACL_INT8, {2}}, {ACL_INT8, {2}}, {ACL_INT8, {2}}), ints({3, -2}), ints({5, 7}),
                ints({-13, -128}));
  // Floating: std::pow's special cases.
  expect_values(make_case(tt, {ACL_FLOAT, {5}}, {ACL_FLOAT, {5}}, {ACL_FLOAT, {5}}), reals({kNaN, 1, -8, 0, -2}),
                reals({0, kNaN, 1.0 / 3, -1, 3}), reals({1, 1, kNaN, kInf, -8}));
  // Tensor ^ scalar keeps an integer tensor's dtype for an integer exponent; a fractional exponent
  // promotes (int ^ 0.5 is float32 with a float32 out).
  expect_values(make_case_s(entry("PowTensorScalar"), {ACL_INT64, {2}}, ScalarDesc(ACL_INT64, 3), {ACL_INT64, {2}}),
                ints({-3, 1 << 21}), {}, ints({-27, std::numeric_limits<int64_t>::min()}));
  expect_values(make_case_s(entry("PowTensorScalar"), {ACL_INT32, {2}}, ScalarDesc(ACL_DOUBLE, 0.5), {ACL_FLOAT, {2}}),
                ints({4, 2}), {}, reals({2, static_cast<float>(std::sqrt(2.0))}));
  // Scalar ^ tensor.
  expect_values(make_case_s(entry("PowScalarTensor"), {ACL_INT32, {3}}, ScalarDesc(ACL_INT64, 2), {ACL_INT32, {3}}),
                ints({10, -1, 0}), {}, ints({1024, 0, 1}));
  expect_values(make_case_s(entry("PowScalarTensor"), {ACL_FLOAT, {2}}, ScalarDesc(ACL_DOUBLE, 2.0), {ACL_FLOAT, {2}}),
                reals({0.5, -1}), {}, reals({static_cast<float>(std::sqrt(2.0)), 0.5}));
  // In place.
  expect_values(make_case_s(entry("InplacePowTensorScalar"), {ACL_FLOAT16, {2}}, ScalarDesc(ACL_INT64, 2)),
                reals({3, 300}), {}, reals({9, kInf}));
}

TEST(CompareLogicSemantics, FloorDivideRemainderFmod) {
  expect_values(make_case(entry("FloorDivide"), {ACL_INT32, {5}}, {ACL_INT32, {5}}, {ACL_INT32, {5}}),
                ints({-7, 7, 7, -7, 5}), ints({2, -2, 2, -2, 0}), ints({-4, -4, 3, 3, 0}));
  expect_values(make_case(entry("FloorDivide"), {ACL_FLOAT, {4}}, {ACL_FLOAT, {4}}, {ACL_FLOAT, {4}}),
                reals({1, -1, 0, -7.5}), reals({0, 0, 0, 2}), reals({kInf, -kInf, kNaN, -4}));
  expect_values(make_case(entry("FloorDivide"), {ACL_BOOL, {2}}, {ACL_BOOL, {2}}, {ACL_FLOAT, {2}}), ints({1, 0}),
                ints({1, 1}), reals({1, 0}));
  expect_values(make_case_s(entry("FloorDivides"), {ACL_INT32, {2}}, ScalarDesc(ACL_INT64, int64_t{1} << 40),
                            {ACL_INT32, {2}}),
                ints({5, -5}), {}, ints({0, -1}));
  expect_values(make_case(entry("RemainderTensorTensor"), {ACL_INT32, {5}}, {ACL_INT32, {5}}, {ACL_INT32, {5}}),
                ints({-7, 7, 7, -7, 9}), ints({3, -3, 3, -3, 0}), ints({2, -2, 1, -1, 9}));
  expect_values(make_case(entry("RemainderTensorTensor"), {ACL_FLOAT, {4}}, {ACL_FLOAT, {4}}, {ACL_FLOAT, {4}}),
                reals({-3, 3, -1, 5}), reals({-3, -3, 3.5, 0}), reals({-0.0, 0.0, 2.5, kNaN}));
  expect_values(make_case_s(entry("RemainderTensorScalar"), {ACL_INT32, {4}}, ScalarDesc(ACL_DOUBLE, 3.5),
                            {ACL_FLOAT, {4}}),
                ints({-1, -2, -3, -4}), {}, reals({2.5, 1.5, 0.5, 3}));
  expect_values(make_case_s(entry("RemainderScalarTensor"), {ACL_INT32, {4}}, ScalarDesc(ACL_DOUBLE, 5.0),
                            {ACL_FLOAT, {4}}),
                ints({-1, -2, -3, -4}), {}, reals({0.0, -1, -1, -3}));
  expect_values(make_case(entry("FmodTensor"), {ACL_INT32, {4}}, {ACL_INT32, {4}}, {ACL_INT32, {4}}),
                ints({-7, 7, -7, 4}), ints({3, -3, -3, 0}), ints({-1, 1, -1, 4}));
  expect_values(make_case_s(entry("FmodScalar"), {ACL_FLOAT, {3}}, ScalarDesc(ACL_DOUBLE, -2), {ACL_FLOAT, {3}}),
                reals({-5.5, 5.5, kInf}), {}, reals({-1.5, 1.5, kNaN}));
}

TEST(CompareLogicSemantics, Atan2) {
  expect_values(make_case(entry("Atan2"), {ACL_DOUBLE, {6}}, {ACL_DOUBLE, {6}}, {ACL_DOUBLE, {6}}),
                reals({1, -0.0, 0.0, 1, -1, kInf}), reals({-1, -1, -1, 0, 0, kInf}),
                reals({std::atan2(1.0, -1.0), -kPi, kPi, kPi / 2, -kPi / 2, kPi / 4}));
  expect_values(make_case(entry("Atan2"), {ACL_INT32, {2}}, {ACL_BOOL, {2}}, {ACL_FLOAT, {2}}), ints({0, 1}),
                ints({1, 0}), reals({0, static_cast<float>(kPi / 2)}));
  // In place on an integer selfRef: the float32 result is truncated.
  expect_values(make_case(entry("InplaceAtan2"), {ACL_INT32, {3}}, {ACL_INT32, {3}}), ints({1, 0, -5}),
                ints({-1, -1, 1}), ints({2, 3, -1}));
}

// ---- Equal ---------------------------------------------------------------------------------------

// Runs aclnnEqual on a and b (values row-major) into a fresh bool[1] and returns the stored byte.
int run_equal(const TensorDesc& da, const std::vector<Num>& va, const TensorDesc& db, const std::vector<Num>& vb) {
  Tensor a(da), b(db), out(TensorDesc(ACL_BOOL, {1}));
  size_t k = 0;
  for_each_index(da.shape, [&](const Shape& idx) { a.set(idx, va.at(k++)); });
  k = 0;
  for_each_index(db.shape, [&](const Shape& idx) { b.set(idx, vb.at(k++)); });
  a.upload();
  b.upload();
  out.fill(Num::integer(7));  // garbage the op must overwrite with 0 or 1
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = aclnnEqualGetWorkspaceSize(a.get(), b.get(), out.get(), &ws, &ex);
  if (st != ACLNN_SUCCESS) {
    ADD_FAILURE() << "Equal " << da.str() << " " << db.str() << ": " << st << " " << aclGetRecentErrMsg();
    return -1;
  }
  void* w = nullptr;
  if (ws) {
    EXPECT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  EXPECT_EQ(aclnnEqual(w, ws, ex, stream()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
  if (w) aclrtFree(w);
  out.download();
  return static_cast<int>(out.host()[0]);
}

TEST(CompareLogicEqual, Values) {
  const TensorDesc f4(ACL_FLOAT, {2, 2});
  EXPECT_EQ(run_equal(f4, reals({1, 2, 3, -0.0}), f4, reals({1, 2, 3, 0.0})), 1);
  EXPECT_EQ(run_equal(f4, reals({1, 2, 3, 4}), f4, reals({1, 2, 3, 5})), 0);
  EXPECT_EQ(run_equal(f4, reals({1, 2, kNaN, 4}), f4, reals({1, 2, kNaN, 4})), 0);
  // Different dtypes compare in the promoted dtype.
  EXPECT_EQ(run_equal({ACL_INT32, {3}}, ints({1, -2, 3}), {ACL_FLOAT16, {3}}, reals({1, -2, 3})), 1);
  EXPECT_EQ(run_equal({ACL_INT64, {1}}, ints({(int64_t{1} << 53) + 1}), {ACL_INT64, {1}}, ints({int64_t{1} << 53})), 0);
  EXPECT_EQ(run_equal({ACL_BOOL, {2}}, ints({1, 0}), {ACL_UINT8, {2}}, ints({1, 0})), 1);
  EXPECT_EQ(run_equal({ACL_BF16, {2}}, reals({1, 2}), {ACL_FLOAT16, {2}}, reals({1, 2})), 1);
  // Shapes must be equal (no broadcasting); two empty tensors of the same shape are equal.
  EXPECT_EQ(run_equal({ACL_FLOAT, {3}}, reals({1, 1, 1}), {ACL_FLOAT, {1}}, reals({1})), 0);
  EXPECT_EQ(run_equal({ACL_FLOAT, {3}}, reals({1, 2, 3}), {ACL_FLOAT, {1, 3}}, reals({1, 2, 3})), 0);
  EXPECT_EQ(run_equal({ACL_FLOAT, {0, 2}}, {}, {ACL_INT32, {0, 2}}, {}), 1);
  EXPECT_EQ(run_equal({ACL_FLOAT, {0, 2}}, {}, {ACL_FLOAT, {2, 0}}, {}), 0);
  EXPECT_EQ(run_equal({ACL_DOUBLE, {}}, reals({2.5}), {ACL_DOUBLE, {}}, reals({2.5})), 1);
}

TEST(CompareLogicEqual, StridedAndLarge) {
  // A transposed view against its contiguous copy, and a difference in the last chunk only.
  std::vector<Num> vb;
  // a: storage row-major [2,3] viewed as [3,2] via strides [1,3]; b: the transpose contiguous.
  const TensorDesc ta(ACL_FLOAT, {3, 2}, {1, 3});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j) vb.push_back(Num::real((j * 3 + i) * 1.5));
  std::vector<Num> va_view;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j) va_view.push_back(Num::real((j * 3 + i) * 1.5));
  EXPECT_EQ(run_equal(ta, va_view, {ACL_FLOAT, {3, 2}}, vb), 1);
  std::vector<Num> big(3000, Num::integer(5)), big2(3000, Num::integer(5));
  EXPECT_EQ(run_equal({ACL_INT32, {3, 1000}}, big, {ACL_INT64, {3, 1000}, {2000, 2}, 1}, big2), 1);
  big2[2999] = Num::integer(6);
  EXPECT_EQ(run_equal({ACL_INT32, {3, 1000}}, big, {ACL_INT64, {3, 1000}, {2000, 2}, 1}, big2), 0);
}

TEST(CompareLogicEqual, Errors) {
  Tensor a(TensorDesc(ACL_FLOAT, {2})), b(TensorDesc(ACL_FLOAT, {2})), out(TensorDesc(ACL_BOOL, {1}));
  Tensor out2(TensorDesc(ACL_BOOL, {2})), outf(TensorDesc(ACL_FLOAT, {1})), outs(TensorDesc(ACL_BOOL, {}));
  Tensor u16(TensorDesc(ACL_UINT16, {2})), big(TensorDesc(ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 2}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  struct Bad {
    const aclTensor *a, *b, *out;
    int status;
    const char* name;
  };
  const Bad bad[] = {
      {nullptr, b.get(), out.get(), ACLNN_ERR_PARAM_NULLPTR, "self"},
      {a.get(), nullptr, out.get(), ACLNN_ERR_PARAM_NULLPTR, "other"},
      {a.get(), b.get(), nullptr, ACLNN_ERR_PARAM_NULLPTR, "out"},
      {a.get(), b.get(), out2.get(), ACLNN_ERR_PARAM_INVALID, "out"},
      {a.get(), b.get(), outs.get(), ACLNN_ERR_PARAM_INVALID, "out"},
      {a.get(), b.get(), outf.get(), ACLNN_ERR_PARAM_INVALID, "out"},
      {u16.get(), b.get(), out.get(), ACLNN_ERR_PARAM_INVALID, "self"},
      {a.get(), big.get(), out.get(), ACLNN_ERR_PARAM_INVALID, "other"},
  };
  for (const Bad& x : bad) {
    EXPECT_EQ(aclnnEqualGetWorkspaceSize(x.a, x.b, const_cast<aclTensor*>(x.out), &ws, &ex), x.status) << x.name;
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find(x.name), std::string::npos) << msg;
    EXPECT_NE(msg.find("aclnnEqual"), std::string::npos) << msg;
  }
}

// ---- bad inputs ----------------------------------------------------------------------------------

class CompareLogicErrors : public ::testing::TestWithParam<std::string> {};

// A valid dtype pair for an entry (its result castable to its natural out).
std::pair<aclDataType, aclDataType> valid_dtypes(const Entry& e) { return layout_dtypes(e, 1); }

TEST_P(CompareLogicErrors, NullArguments) {
  const Entry& e = entry(GetParam());
  const auto d = valid_dtypes(e);
  Tensor a(TensorDesc(d.first, {2, 3})), b(TensorDesc(d.second, {2, 3}));
  Tensor out(TensorDesc(natural_out(e, d.first, d.second), {2, 3}));
  Scalar as(ScalarDesc(d.first, 2)), bs(ScalarDesc(d.second, 2));
  aclTensor* ta = e.a_scalar() ? nullptr : a.get();
  aclTensor* tb = e.b_scalar() ? nullptr : b.get();
  aclScalar* sa = e.a_scalar() ? as.get() : nullptr;
  aclScalar* sb = e.b_scalar() ? bs.get() : nullptr;
  aclTensor* to = e.inplace() ? nullptr : out.get();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  // Sanity: the full argument list is accepted.
  ASSERT_EQ(e.p1(ta, tb, sa, sb, to, &ws, &ex), ACLNN_SUCCESS) << e.name << ": " << aclGetRecentErrMsg();
  aclDestroyAclOpExecutor(ex);
  auto expect_null = [&](aclnnStatus st, const char* name) {
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_EQ(st, ACLNN_ERR_PARAM_NULLPTR) << e.name << " null " << name << ": " << msg;
    EXPECT_NE(msg.find(name), std::string::npos) << e.name << ": " << msg;
  };
  expect_null(e.p1(e.a_scalar() ? ta : nullptr, tb, e.a_scalar() ? nullptr : sa, sb, to, &ws, &ex), e.a_name);
  expect_null(e.p1(ta, e.b_scalar() ? tb : nullptr, sa, e.b_scalar() ? nullptr : sb, to, &ws, &ex), e.b_name);
  if (!e.inplace()) expect_null(e.p1(ta, tb, sa, sb, nullptr, &ws, &ex), "out");
  expect_null(e.p1(ta, tb, sa, sb, to, nullptr, &ex), "workspaceSize");
  expect_null(e.p1(ta, tb, sa, sb, to, &ws, nullptr), "executor");
}

TEST_P(CompareLogicErrors, Shapes) {
  const Entry& e = entry(GetParam());
  const auto d = valid_dtypes(e);
  const aclDataType o = natural_out(e, d.first, d.second);
  const TensorDesc rank9(d.first, {1, 1, 1, 1, 1, 1, 1, 2, 3});
  int k = 0;
  auto run = [&](const TensorDesc& a, const TensorDesc& b, const TensorDesc& out) {
    ++k;
    if (e.a_scalar()) run_case(make_case_s(e, b, ScalarDesc(d.first, 2), out), seed_of(20, k));
    else if (e.b_scalar()) run_case(make_case_s(e, a, ScalarDesc(d.second, 2), out), seed_of(21, k));
    else run_case(make_case(e, a, b, out), seed_of(22, k));
  };
  // Rank 9 operands (each tensor operand in turn).
  run(rank9, {d.second, {2, 3}}, {o, {1, 1, 1, 1, 1, 1, 1, 2, 3}});
  run({d.first, {2, 3}}, {d.second, {1, 1, 1, 1, 1, 1, 1, 2, 3}}, {o, {1, 1, 1, 1, 1, 1, 1, 2, 3}});
  // Shapes that do not broadcast; an out of the wrong shape; an in-place result that would grow.
  run({d.first, {2, 3}}, {d.second, {4}}, {o, {2, 3}});
  run({d.first, {2, 3}}, {d.second, {3}}, {o, {3, 2}});
  run({d.first, {2, 3}}, {d.second, {3}}, {o, {6}});
  run({d.first, {1, 3}}, {d.second, {2, 3}}, {o, {2, 3}});
}

TEST_P(CompareLogicErrors, UnsupportedDtypes) {
  const Entry& e = entry(GetParam());
  const auto d = valid_dtypes(e);
  const aclDataType o = natural_out(e, d.first, d.second);
  int k = 0;
  for (aclDataType bad : {ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_COMPLEX64}) {
    ++k;
    // A scalar operand of an unsupported dtype.
    if (e.a_scalar()) run_case(make_case_s(e, {d.second, {2}}, ScalarDesc(bad, Num::integer(2)), {o, {2}}), seed_of(37, k));
    if (e.b_scalar())
      run_case(make_case_s(e, {d.first, {2}}, ScalarDesc(bad, Num::integer(2)), e.inplace() ? TensorDesc() : TensorDesc(o, {2})),
               seed_of(38, k));
    // The first tensor operand, then the other, then out.
    if (e.a_scalar()) {
      run_case(make_case_s(e, {bad, {2}}, ScalarDesc(d.first, 2), {o, {2}}), seed_of(30, k));
      run_case(make_case_s(e, {d.second, {2}}, ScalarDesc(d.first, 2), {bad, {2}}), seed_of(31, k));
    } else if (e.b_scalar()) {
      run_case(make_case_s(e, {bad, {2}}, ScalarDesc(d.second, 2), {o, {2}}), seed_of(32, k));
      if (!e.inplace()) run_case(make_case_s(e, {d.first, {2}}, ScalarDesc(d.second, 2), {bad, {2}}), seed_of(33, k));
    } else {
      run_case(make_case(e, {bad, {2}}, {d.second, {2}}, {o, {2}}), seed_of(34, k));
      run_case(make_case(e, {d.first, {2}}, {bad, {2}}, {o, {2}}), seed_of(35, k));
      if (!e.inplace()) run_case(make_case(e, {d.first, {2}}, {d.second, {2}}, {bad, {2}}), seed_of(36, k));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CompareLogic, CompareLogicErrors, ::testing::ValuesIn(entry_names()), entry_name);

TEST(CompareLogicErrorsSpecific, PowBothBool) {
  run_case(make_case(entry("PowTensorTensor"), {ACL_BOOL, {2}}, {ACL_BOOL, {2}}, {ACL_FLOAT, {2}}), 1);
  run_case(make_case_s(entry("PowTensorScalar"), {ACL_BOOL, {2}}, ScalarDesc(ACL_BOOL, 1), {ACL_FLOAT, {2}}), 2);
  run_case(make_case_s(entry("PowScalarTensor"), {ACL_BOOL, {2}}, ScalarDesc(ACL_BOOL, 1), {ACL_FLOAT, {2}}), 3);
  EXPECT_EQ(model(make_case(entry("PowTensorTensor"), {ACL_BOOL, {2}}, {ACL_BOOL, {2}}, {ACL_FLOAT, {2}})).status,
            ACLNN_ERR_PARAM_INVALID);
}

TEST(CompareLogicErrorsSpecific, PromotedDtypeNotSupported) {
  // Remainder of two int8 tensors promotes to int8, which Remainder does not compute in; Fmod of
  // int8 and uint8 promotes to int16.
  const Case r = make_case(entry("RemainderTensorTensor"), {ACL_INT8, {2}}, {ACL_INT8, {2}}, {ACL_INT8, {2}});
  EXPECT_EQ(model(r).status, ACLNN_ERR_PARAM_INVALID);
  run_case(r, 1);
  const Case f = make_case(entry("FmodTensor"), {ACL_INT8, {2}}, {ACL_UINT8, {2}}, {ACL_INT32, {2}});
  EXPECT_EQ(model(f).status, ACLNN_ERR_PARAM_INVALID);
  run_case(f, 2);
}

TEST(CompareLogicErrorsSpecific, Casts) {
  // Float results into integer outs, integer results into bool outs, in-place narrowing to bool.
  for (const char* name : {"Maximum", "FloorDivide", "RemainderTensorTensor", "FmodTensor", "PowTensorTensor"}) {
    const Case c = make_case(entry(name), {ACL_FLOAT, {2}}, {ACL_INT32, {2}}, {ACL_INT32, {2}});
    EXPECT_EQ(model(c).status, ACLNN_ERR_PARAM_INVALID) << name;
    run_case(c, 3);
  }
  const Case bw = make_case(entry("InplaceBitwiseOrTensor"), {ACL_BOOL, {2}}, {ACL_INT8, {2}});
  EXPECT_EQ(model(bw).status, ACLNN_ERR_PARAM_INVALID);
  run_case(bw, 4);
  const Case ps = make_case_s(entry("InplacePowTensorScalar"), {ACL_INT32, {2}}, ScalarDesc(ACL_DOUBLE, 0.5));
  EXPECT_EQ(model(ps).status, ACLNN_ERR_PARAM_INVALID);
  run_case(ps, 5);
  // Remainder(scalar, tensor): a fractional scalar with an integer tensor cannot go to an integer out.
  const Case rs = make_case_s(entry("RemainderScalarTensor"), {ACL_INT32, {2}}, ScalarDesc(ACL_DOUBLE, 5.5),
                              {ACL_INT32, {2}});
  EXPECT_EQ(model(rs).status, ACLNN_ERR_PARAM_INVALID);
  run_case(rs, 6);
}

// Phase 2 of a different op, a consumed executor, and a repeatable executor rerun with new data.
TEST(CompareLogicExecutor, RepeatableAndMismatched) {
  Tensor a(TensorDesc(ACL_INT32, {4})), b(TensorDesc(ACL_INT32, {4})), out(TensorDesc(ACL_BOOL, {4}));
  for (int64_t i = 0; i < 4; ++i) {
    a.set({i}, Num::integer(i));
    b.set({i}, Num::integer(2));
  }
  a.upload();
  b.upload();
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnGtTensorGetWorkspaceSize(a.get(), b.get(), out.get(), &ws, &ex), ACLNN_SUCCESS);
  EXPECT_NE(aclnnLtTensor(nullptr, ws, ex, stream()), ACLNN_SUCCESS);  // planned by Gt: rejected, consumed
  ASSERT_EQ(aclnnGtTensorGetWorkspaceSize(a.get(), b.get(), out.get(), &ws, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(aclnnGtTensor(nullptr, ws, ex, stream()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream()), ACL_SUCCESS);
    out.download();
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out.at({i}).i, (run == 0 ? i : 3 - i) > 2 ? 1 : 0) << run << " " << i;
    for (int64_t i = 0; i < 4; ++i) a.set({i}, Num::integer(3 - i));
    a.upload();
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
}

}  // namespace
