// The binary arithmetic family (Add, Sub, Mul, Div, DivMod; tensor, scalar and in-place forms:
// twenty entry points) against a reference written here from the contract:
//  - result dtype: PyTorch promote_types for tensor (op) tensor, CANN's rule for tensor (op)
//    scalar; operands are cast to the compute dtype first (scalars included, alpha not);
//    float16/bfloat16 compute in float32 and the float32 result is rounded once to out;
//  - Div is true division, integer/bool operands compute in float32; DivMod mode 1 truncates,
//    mode 2 floors (PyTorch floor_divide for floats; integers: floor, x / 0 = 0);
//  - bool Add = a + alpha*b != 0, bool Sub = a - alpha*b != 0 (alpha as bool, as CANN converts
//    it to the promoted dtype), bool Mul = and; integers wrap;
//  - float (op) with alpha != 1 may be computed fused or not: both results are accepted, bitwise.
// Every case is a one-line descriptor (Case::str()), printed on failure as the repro.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "op_test_util.h"

namespace {

using namespace optest;

// ---- the twenty entry points ---------------------------------------------------------------------

enum class Kind { kAdd, kSub, kMul, kDiv };

enum class Op {
  Add, Adds, InplaceAdd, InplaceAdds,
  Sub, Subs, InplaceSub, InplaceSubs,
  Mul, Muls, InplaceMul, InplaceMuls,
  Div, Divs, InplaceDiv, InplaceDivs,
  DivMod, DivMods, InplaceDivMod, InplaceDivMods,
};

const Op kAllOps[] = {Op::Add,  Op::Adds,  Op::InplaceAdd,  Op::InplaceAdds,  Op::Sub,    Op::Subs,    Op::InplaceSub,
                      Op::InplaceSubs, Op::Mul, Op::Muls,   Op::InplaceMul,  Op::InplaceMuls, Op::Div,    Op::Divs,
                      Op::InplaceDiv, Op::InplaceDivs, Op::DivMod, Op::DivMods, Op::InplaceDivMod, Op::InplaceDivMods};

struct OpTraits {
  const char* name;
  Kind kind;
  bool scalar;   // other is an aclScalar
  bool inplace;  // selfRef is the output
  bool divmod;   // takes a mode
  bool has_alpha() const { return kind == Kind::kAdd || kind == Kind::kSub; }
};

const OpTraits& traits(Op op) {
  static const OpTraits t[] = {
      {"Add", Kind::kAdd, false, false, false},         {"Adds", Kind::kAdd, true, false, false},
      {"InplaceAdd", Kind::kAdd, false, true, false},   {"InplaceAdds", Kind::kAdd, true, true, false},
      {"Sub", Kind::kSub, false, false, false},         {"Subs", Kind::kSub, true, false, false},
      {"InplaceSub", Kind::kSub, false, true, false},   {"InplaceSubs", Kind::kSub, true, true, false},
      {"Mul", Kind::kMul, false, false, false},         {"Muls", Kind::kMul, true, false, false},
      {"InplaceMul", Kind::kMul, false, true, false},   {"InplaceMuls", Kind::kMul, true, true, false},
      {"Div", Kind::kDiv, false, false, false},         {"Divs", Kind::kDiv, true, false, false},
      {"InplaceDiv", Kind::kDiv, false, true, false},   {"InplaceDivs", Kind::kDiv, true, true, false},
      {"DivMod", Kind::kDiv, false, false, true},       {"DivMods", Kind::kDiv, true, false, true},
      {"InplaceDivMod", Kind::kDiv, false, true, true}, {"InplaceDivMods", Kind::kDiv, true, true, true},
  };
  return t[static_cast<int>(op)];
}

aclnnStatus phase1(Op op, aclTensor* self, const aclTensor* other, const aclScalar* other_s, const aclScalar* alpha,
                   int mode, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  switch (op) {
    case Op::Add: return aclnnAddGetWorkspaceSize(self, other, alpha, out, ws, ex);
    case Op::Adds: return aclnnAddsGetWorkspaceSize(self, other_s, alpha, out, ws, ex);
    case Op::InplaceAdd: return aclnnInplaceAddGetWorkspaceSize(self, other, alpha, ws, ex);
    case Op::InplaceAdds: return aclnnInplaceAddsGetWorkspaceSize(self, other_s, alpha, ws, ex);
    case Op::Sub: return aclnnSubGetWorkspaceSize(self, other, alpha, out, ws, ex);
    case Op::Subs: return aclnnSubsGetWorkspaceSize(self, other_s, alpha, out, ws, ex);
    case Op::InplaceSub: return aclnnInplaceSubGetWorkspaceSize(self, other, alpha, ws, ex);
    case Op::InplaceSubs: return aclnnInplaceSubsGetWorkspaceSize(self, other_s, alpha, ws, ex);
    case Op::Mul: return aclnnMulGetWorkspaceSize(self, other, out, ws, ex);
    case Op::Muls: return aclnnMulsGetWorkspaceSize(self, other_s, out, ws, ex);
    case Op::InplaceMul: return aclnnInplaceMulGetWorkspaceSize(self, other, ws, ex);
    case Op::InplaceMuls: return aclnnInplaceMulsGetWorkspaceSize(self, other_s, ws, ex);
    case Op::Div: return aclnnDivGetWorkspaceSize(self, other, out, ws, ex);
    case Op::Divs: return aclnnDivsGetWorkspaceSize(self, other_s, out, ws, ex);
    case Op::InplaceDiv: return aclnnInplaceDivGetWorkspaceSize(self, other, ws, ex);
    case Op::InplaceDivs: return aclnnInplaceDivsGetWorkspaceSize(self, other_s, ws, ex);
    case Op::DivMod: return aclnnDivModGetWorkspaceSize(self, other, mode, out, ws, ex);
    case Op::DivMods: return aclnnDivModsGetWorkspaceSize(self, other_s, mode, out, ws, ex);
    case Op::InplaceDivMod: return aclnnInplaceDivModGetWorkspaceSize(self, other, mode, ws, ex);
    case Op::InplaceDivMods: return aclnnInplaceDivModsGetWorkspaceSize(self, other_s, mode, ws, ex);
  }
  return -1;
}

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

Phase2 phase2(Op op) {
  switch (op) {
    case Op::Add: return aclnnAdd;
    case Op::Adds: return aclnnAdds;
    case Op::InplaceAdd: return aclnnInplaceAdd;
    case Op::InplaceAdds: return aclnnInplaceAdds;
    case Op::Sub: return aclnnSub;
    case Op::Subs: return aclnnSubs;
    case Op::InplaceSub: return aclnnInplaceSub;
    case Op::InplaceSubs: return aclnnInplaceSubs;
    case Op::Mul: return aclnnMul;
    case Op::Muls: return aclnnMuls;
    case Op::InplaceMul: return aclnnInplaceMul;
    case Op::InplaceMuls: return aclnnInplaceMuls;
    case Op::Div: return aclnnDiv;
    case Op::Divs: return aclnnDivs;
    case Op::InplaceDiv: return aclnnInplaceDiv;
    case Op::InplaceDivs: return aclnnInplaceDivs;
    case Op::DivMod: return aclnnDivMod;
    case Op::DivMods: return aclnnDivMods;
    case Op::InplaceDivMod: return aclnnInplaceDivMod;
    case Op::InplaceDivMods: return aclnnInplaceDivMods;
  }
  return nullptr;
}

// ---- one case as one line ------------------------------------------------------------------------

struct Case {
  Op op = Op::Add;
  TensorDesc self;
  TensorDesc other;           // tensor forms (unused when other_is_self)
  ScalarDesc other_s;         // scalar forms
  ScalarDesc alpha;           // Add/Sub forms; int64(1) by default
  TensorDesc out;             // out-of-place forms
  int mode = 0;               // DivMod forms
  bool other_is_self = false; // other is the self (selfRef) aclTensor itself

  const OpTraits& t() const { return traits(op); }
  // The out dtype and shape (selfRef's for the in-place forms).
  const TensorDesc& result() const { return t().inplace ? self : out; }
  aclDataType other_dtype() const { return t().scalar ? other_s.dtype : other_is_self ? self.dtype : other.dtype; }

  std::string str() const {
    const OpTraits& tr = t();
    std::string r = std::string(tr.name) + (tr.inplace ? " selfRef=" : " self=") + self.str();
    if (tr.scalar) r += " other=" + other_s.str();
    else r += " other=" + (other_is_self ? std::string(tr.inplace ? "selfRef" : "self") : other.str());
    if (tr.has_alpha()) r += " alpha=" + alpha.str();
    if (tr.divmod) r += " mode=" + std::to_string(mode);
    if (!tr.inplace) r += " out=" + out.str();
    return r;
  }
};

// Shorthand for the common cases.
Case tensor_case(Op op, TensorDesc self, TensorDesc other, TensorDesc out = {}, ScalarDesc alpha = {}, int mode = 0) {
  Case c;
  c.op = op;
  c.self = std::move(self);
  c.other = std::move(other);
  c.out = std::move(out);
  c.alpha = alpha;
  c.mode = mode;
  return c;
}
Case scalar_case(Op op, TensorDesc self, ScalarDesc other, TensorDesc out = {}, ScalarDesc alpha = {}, int mode = 0) {
  Case c;
  c.op = op;
  c.self = std::move(self);
  c.other_s = other;
  c.out = std::move(out);
  c.alpha = alpha;
  c.mode = mode;
  return c;
}

// ---- the contract: dtypes, checks, values --------------------------------------------------------

// PyTorch's promote_types over the ten compute dtypes, from its rules rather than its table:
// bool yields to anything; floating wins over integral; float16 with bfloat16 gives float32,
// otherwise the wider float; uint8 with int8 gives int16, otherwise the wider integer.
aclDataType promote_types(aclDataType a, aclDataType b) {
  if (a == b) return a;
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  if (is_floating(a) && is_floating(b)) {
    auto width = [](aclDataType t) { return t == ACL_DOUBLE ? 3 : t == ACL_FLOAT ? 2 : 1; };
    if (width(a) == width(b)) return ACL_FLOAT;  // float16 with bfloat16
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

// CANN's result dtype for tensor (op) scalar (910B rules; arith.cpp states them).
aclDataType scalar_promote(Kind kind, aclDataType self, aclDataType scalar, aclDataType out) {
  if (kind == Kind::kMul) {
    if (self == ACL_FLOAT16 || self == ACL_FLOAT || self == ACL_DOUBLE) return self;
    if (self == ACL_BF16) return ACL_FLOAT;
    if ((self == ACL_BOOL && scalar == ACL_DOUBLE) || (scalar == ACL_DOUBLE && out == ACL_FLOAT)) return ACL_FLOAT;
  } else {
    if (is_floating(self)) return self;
    if (scalar == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
  }
  if (is_floating(scalar) || self == ACL_BOOL) return promote_types(self, scalar);
  return self;
}

// What phase 1 must answer for a case.
struct Expect {
  int status = ACLNN_SUCCESS;
  std::vector<std::string> names;  // what the error message must name
  aclDataType promoted = ACL_FLOAT;
  aclDataType compute = ACL_FLOAT;
  Shape shape;  // the broadcast shape
};

Expect model(const Case& c) {
  const OpTraits& t = c.t();
  Expect e;
  const std::string self_name = t.inplace ? "selfRef" : "self";
  const std::string out_name = t.inplace ? "selfRef" : "out";
  auto fail = [&](std::vector<std::string> names) {
    e.status = ACLNN_ERR_PARAM_INVALID;
    e.names = std::move(names);
    return e;
  };
  const int mode = t.divmod ? c.mode : 0;
  if (mode < 0 || mode > 2) return fail({"mode"});
  const aclDataType self_t = c.self.dtype, other_t = c.other_dtype(), out_t = c.result().dtype;
  // Checks in the documented order: dtypes, then promotion and casts, then ranks and shapes.
  if (!is_compute_dtype(self_t)) return fail({self_name});
  if (!is_compute_dtype(other_t)) return fail({"other"});
  if (t.has_alpha() && !is_compute_dtype(c.alpha.dtype)) return fail({"alpha"});
  if (!is_compute_dtype(out_t)) return fail({out_name});
  if (!t.scalar) e.promoted = promote_types(self_t, other_t);
  else if (t.kind == Kind::kDiv && mode == 0) e.promoted = self_t;
  else e.promoted = scalar_promote(t.kind, self_t, other_t, out_t);
  if (t.has_alpha()) {
    const bool ok = e.promoted == ACL_BOOL ? !is_floating(c.alpha.dtype) : can_cast(c.alpha.dtype, e.promoted);
    if (!ok) return fail({"alpha"});
  }
  if (!(t.kind == Kind::kMul && t.scalar) && !can_cast(e.promoted, out_t)) return fail({out_name});
  if (c.self.shape.size() > 8) return fail({self_name});
  e.shape = c.self.shape;
  if (!t.scalar) {
    const Shape& other_shape = c.other_is_self ? c.self.shape : c.other.shape;
    if (other_shape.size() > 8) return fail({"other"});
    if (!broadcast_shapes(c.self.shape, other_shape, &e.shape)) return fail({self_name, "other"});
    if (t.inplace && e.shape != c.self.shape) return fail({self_name});
  }
  if (c.result().shape != e.shape) return fail({out_name});
  e.compute = e.promoted;
  if (t.kind == Kind::kDiv && (mode == 0 || e.promoted == ACL_BOOL) && !is_floating(e.promoted)) e.compute = ACL_FLOAT;
  return e;
}

// PyTorch's floor_divide for floating types (c10 div_floor_floating): the definition of mode 2.
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

// x + y * z rounded once, and rounded twice: the two results a compiler may produce.
template <typename F>
F unfused_add(F x, F y, F z) {
  volatile F p = y * z;
  return x + p;
}

// The values the contract allows for one element, in the compute dtype. a and b are already cast
// to the compute dtype; alpha is the raw alpha.
std::vector<Num> reference(const Case& c, aclDataType compute, const Num& a, const Num& b) {
  const OpTraits& t = c.t();
  const int mode = t.divmod ? c.mode : 0;
  const Num& alpha = c.alpha.value;
  if (compute == ACL_BOOL) {
    const bool x = a.i != 0, y = b.i != 0, al = alpha.nonzero();
    switch (t.kind) {
      case Kind::kAdd: return {Num::integer(x || (al && y))};
      case Kind::kSub: return {Num::integer(x != (al && y))};
      case Kind::kMul: return {Num::integer(x && y)};
      case Kind::kDiv: break;  // computes in float32
    }
    ADD_FAILURE() << "bool Div must compute in float32";
    return {};
  }
  if (is_integral(compute)) {
    const uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i), al = static_cast<uint64_t>(alpha.i);
    uint64_t r = 0;
    switch (t.kind) {
      case Kind::kAdd: r = x + al * y; break;
      case Kind::kSub: r = x - al * y; break;
      case Kind::kMul: r = x * y; break;
      case Kind::kDiv:
        if (b.i == 0) r = 0;  // the device does not trap
        else if (b.i == -1) r = 0 - x;  // wraps for the minimum
        else {
          int64_t q = a.i / b.i;  // truncated
          if (mode == 2 && a.i % b.i != 0 && ((a.i < 0) != (b.i < 0))) --q;
          r = static_cast<uint64_t>(q);
        }
        break;
    }
    return {Num::integer(wrap_int(r, compute))};
  }
  auto floating = [&](auto zero) -> std::vector<Num> {
    using F = decltype(zero);
    const F x = static_cast<F>(a.f), y = static_cast<F>(b.f);
    const F al = static_cast<F>(alpha.as_double());
    const bool plain = alpha.as_double() == 1.0;
    auto one = [](F v) { return std::vector<Num>{Num::real(v)}; };
    switch (t.kind) {
      case Kind::kAdd:
        if (plain) return one(x + y);
        return {Num::real(std::fma(al, y, x)), Num::real(unfused_add(x, al, y))};
      case Kind::kSub:
        if (plain) return one(x - y);
        return {Num::real(std::fma(-al, y, x)), Num::real(unfused_add(x, -al, y))};
      case Kind::kMul: return one(x * y);
      case Kind::kDiv:
        if (mode == 1) return one(std::trunc(x / y));
        if (mode == 2) return one(floor_divide(x, y));
        return one(x / y);
    }
    return {};
  };
  return compute == ACL_DOUBLE ? floating(0.0) : floating(0.0f);  // float16/bfloat16 compute in float
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
  std::unique_ptr<Tensor> self, other, out;
  std::unique_ptr<Scalar> other_s, alpha;
};

// Creates the tensors and scalars of c (nullptr where the form has none).
CaseRun make_args(const Case& c) {
  const OpTraits& t = c.t();
  CaseRun r;
  r.self = std::make_unique<Tensor>(c.self);
  if (!t.scalar && !c.other_is_self) r.other = std::make_unique<Tensor>(c.other);
  if (!t.inplace) r.out = std::make_unique<Tensor>(c.out);
  if (t.scalar) r.other_s = std::make_unique<Scalar>(c.other_s);
  if (t.has_alpha()) r.alpha = std::make_unique<Scalar>(c.alpha);
  return r;
}

aclnnStatus call_phase1(const Case& c, const CaseRun& r, uint64_t* ws, aclOpExecutor** ex) {
  const aclTensor* other = c.other_is_self ? r.self->get() : r.other ? r.other->get() : nullptr;
  return phase1(c.op, r.self->get(), other, r.other_s ? r.other_s->get() : nullptr, r.alpha ? r.alpha->get() : nullptr,
                c.mode, r.out ? r.out->get() : nullptr, ws, ex);
}

// Phase 2 + synchronize; false (with a failure recorded) on any error.
bool call_phase2(const Case& c, uint64_t ws, aclOpExecutor* ex) {
  void* workspace = nullptr;
  if (ws > 0 && aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    ADD_FAILURE() << c.str() << ": aclrtMalloc(workspace " << ws << ") failed";
    return false;
  }
  const aclnnStatus st = phase2(c.op)(workspace, ws, ex, stream());
  const aclError sync = aclrtSynchronizeStream(stream());
  if (workspace) aclrtFree(workspace);
  if (st != ACLNN_SUCCESS || sync != ACL_SUCCESS) {
    ADD_FAILURE() << c.str() << ": phase 2 returned " << st << ", synchronize " << sync << ": " << aclGetRecentErrMsg();
    return false;
  }
  return true;
}

// Checks that phase 1 fails with e.status and a message naming e.names and the entry point.
void check_error(const Case& c, const Expect& e, aclnnStatus st) {
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_EQ(st, e.status) << c.str() << ": " << msg;
  EXPECT_NE(msg.find(std::string("aclnn") + c.t().name), std::string::npos) << c.str() << ": message: " << msg;
  for (const std::string& n : e.names)
    EXPECT_NE(msg.find(n), std::string::npos) << c.str() << ": message should name '" << n << "': " << msg;
}

struct Stats {
  int64_t cases = 0, rejected = 0, elements = 0;
  // One summary line, so that a sweep that checks nothing is visible.
  void print(const std::string& what) const {
    std::printf("[  stats   ] %s: %lld cases, %lld rejected as the contract says, %lld elements checked\n",
                what.c_str(),
                static_cast<long long>(cases), static_cast<long long>(rejected), static_cast<long long>(elements));
  }
};

// Runs c through both phases with seeded random inputs and checks the status, the message, every
// output element against the reference, that inputs are unchanged and that nothing outside the
// output view was written.
void run_case(const Case& c, uint64_t seed, Stats* stats = nullptr, const FillOptions& fill = {}) {
  const OpTraits& t = c.t();
  const Expect e = model(c);
  Rng rng(seed);
  CaseRun r = make_args(c);
  r.self->fill_random(rng, fill);
  if (r.other) r.other->fill_random(rng, fill);
  if (r.out) r.out->fill_random(rng, fill);  // garbage the op must overwrite (and only inside the view)
  const std::vector<uint8_t> self_before = r.self->host();

  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = call_phase1(c, r, &ws, &ex);
  if (stats) ++stats->cases;
  if (e.status != ACLNN_SUCCESS || st != ACLNN_SUCCESS) {
    if (stats) ++stats->rejected;
    if (st == ACLNN_SUCCESS) {
      ADD_FAILURE() << c.str() << ": phase 1 succeeded, expected " << e.status << " naming "
                    << (e.names.empty() ? "" : e.names[0]);
      aclDestroyAclOpExecutor(ex);
    } else {
      check_error(c, e, st);
    }
    return;
  }
  if (numel(e.shape) == 0) {
    EXPECT_EQ(ws, 0u) << c.str() << ": an empty tensor needs no workspace";
  }
  if (!call_phase2(c, ws, ex)) return;

  Tensor& res = t.inplace ? *r.self : *r.out;
  const std::vector<uint8_t> res_before = t.inplace ? self_before : res.host();
  res.download();
  if (!t.inplace) {
    r.self->download();
    EXPECT_TRUE(r.self->host() == self_before) << c.str() << ": self was modified";
  }
  if (r.other) {
    const std::vector<uint8_t> other_before = r.other->host();
    r.other->download();
    EXPECT_TRUE(r.other->host() == other_before) << c.str() << ": other was modified";
  }
  const std::string outside = writes_outside_view(res, res_before);
  EXPECT_TRUE(outside.empty()) << c.str() << ": wrote outside the output view:" << outside;

  // Element-wise comparison over the broadcast shape.
  const TensorDesc& other_desc = c.other_is_self ? c.self : c.other;
  const Shape self_st = broadcast_view_strides(c.self, e.shape);
  const Shape other_st = t.scalar ? Shape() : broadcast_view_strides(other_desc, e.shape);
  const std::vector<uint8_t>& other_bytes = c.other_is_self ? self_before : r.other ? r.other->host() : self_before;
  const Num scalar_b = t.scalar ? cast(c.other_s.value, e.compute) : Num();
  const aclDataType out_t = c.result().dtype;
  const Shape out_st = c.result().view_strides();
  int shown = 0, bad = 0;
  std::string report;
  for_each_index(e.shape, [&](const Shape& idx) {
    int64_t ks = c.self.offset, ko = other_desc.offset, kout = c.result().offset;
    for (size_t i = 0; i < idx.size(); ++i) {
      ks += idx[i] * self_st[i];
      if (!t.scalar) ko += idx[i] * other_st[i];
      kout += idx[i] * out_st[i];
    }
    const Num x = load(c.self.dtype, self_before.data() + ks * dtype_size(c.self.dtype));
    const Num y = t.scalar ? c.other_s.value
                           : load(other_desc.dtype, other_bytes.data() + ko * dtype_size(other_desc.dtype));
    const Num a = cast(x, e.compute), b = t.scalar ? scalar_b : cast(y, e.compute);
    const std::vector<Num> allowed = reference(c, e.compute, a, b);
    const Num actual = load(out_t, res.host().data() + kout * dtype_size(out_t));
    bool ok = false, undefined = false;
    for (const Num& v : allowed) {
      const Num want = cast(v, out_t);
      undefined |= want.undefined;
      ok |= !want.undefined && same_value(out_t, want, actual);
    }
    if (undefined || ok) return;
    ++bad;
    if (shown++ < 6) {
      report += "\n  at " + shape_str(idx) + ": " + num_str(x) + " op " + num_str(y) + " -> got " + num_str(actual) +
                ", expected " + num_str(cast(allowed[0], out_t));
      if (allowed.size() > 1) report += " or " + num_str(cast(allowed[1], out_t));
    }
  });
  if (stats) stats->elements += numel(e.shape);
  EXPECT_EQ(bad, 0) << c.str() << " (promoted " << dtype_name(e.promoted) << ", compute " << dtype_name(e.compute)
                    << "): " << bad << " of " << numel(e.shape) << " elements differ" << report;
}

// Runs c with the given input values (row-major over each view) and returns the output values
// (row-major over the result view). The case must be valid.
std::vector<Num> run_values(const Case& c, const std::vector<Num>& self_vals, const std::vector<Num>& other_vals = {}) {
  CaseRun r = make_args(c);
  size_t k = 0;
  for_each_index(c.self.shape, [&](const Shape& idx) { r.self->set(idx, self_vals.at(k++)); });
  r.self->upload();
  if (r.other) {
    k = 0;
    for_each_index(c.other.shape, [&](const Shape& idx) { r.other->set(idx, other_vals.at(k++)); });
    r.other->upload();
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = call_phase1(c, r, &ws, &ex);
  if (st != ACLNN_SUCCESS) {
    ADD_FAILURE() << c.str() << ": phase 1 returned " << st << ": " << aclGetRecentErrMsg();
    return {};
  }
  if (!call_phase2(c, ws, ex)) return {};
  Tensor& res = c.t().inplace ? *r.self : *r.out;
  res.download();
  std::vector<Num> v;
  for_each_index(c.result().shape, [&](const Shape& idx) { v.push_back(res.at(idx)); });
  return v;
}

// Expects run_values(c, ...) to give exactly `want` (each converted to the out dtype first).
void expect_values(const Case& c, const std::vector<Num>& self_vals, const std::vector<Num>& other_vals,
                   const std::vector<Num>& want) {
  const std::vector<Num> got = run_values(c, self_vals, other_vals);
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

uint64_t seed_of(uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t v : {a, b, c, d}) h = (h ^ v) * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
  return h;
}

// Alphas of every dtype: ones (the plain path), integers, fractions, zero, negative, bool.
const std::vector<ScalarDesc>& alphas() {
  static const std::vector<ScalarDesc> v = {
      ScalarDesc(ACL_INT64, 1),      ScalarDesc(ACL_INT64, 2),    ScalarDesc(ACL_INT32, -3),
      ScalarDesc(ACL_BOOL, 1),       ScalarDesc(ACL_FLOAT, 1.0),  ScalarDesc(ACL_DOUBLE, 0.5),
      ScalarDesc(ACL_FLOAT16, -2.0), ScalarDesc(ACL_BF16, 0.375), ScalarDesc(ACL_UINT8, 0),
      ScalarDesc(ACL_INT8, -1),      ScalarDesc(ACL_INT16, 300),  ScalarDesc(ACL_DOUBLE, 1.0),
      ScalarDesc(ACL_FLOAT, 0.1),    ScalarDesc(ACL_BOOL, 0),     ScalarDesc(ACL_INT64, 1000000007),
  };
  return v;
}

// ---- dtype sweeps: every (self, other, out) dtype triple of every op -----------------------------

struct OpMode {
  Op op;
  int mode;
};
std::string op_mode_str(OpMode p) {
  return std::string(traits(p.op).name) + (traits(p.op).divmod ? "_mode" + std::to_string(p.mode) : "");
}
std::string op_mode_name(const ::testing::TestParamInfo<OpMode>& p) { return op_mode_str(p.param); }
void PrintTo(const OpMode& p, std::ostream* os) { *os << op_mode_str(p); }

class TensorDtypes : public ::testing::TestWithParam<OpMode> {};

TEST_P(TensorDtypes, AllTriples) {
  const OpMode p = GetParam();
  Stats s;
  int k = 0;
  for (aclDataType a : compute_dtypes())
    for (aclDataType b : compute_dtypes())
      for (aclDataType o : compute_dtypes()) {
        const ScalarDesc al = alphas()[static_cast<size_t>(k++) % alphas().size()];
        run_case(tensor_case(p.op, {a, {2, 5}}, {b, {5}}, {o, {2, 5}}, al, p.mode), seed_of(1, int(p.op), p.mode, k),
                 &s);
      }
  EXPECT_EQ(s.cases, 1000);
  EXPECT_GT(s.elements, 0);
  s.print(op_mode_str(p));
}

INSTANTIATE_TEST_SUITE_P(arith, TensorDtypes,
                         ::testing::Values(OpMode{Op::Add, 0}, OpMode{Op::Sub, 0}, OpMode{Op::Mul, 0},
                                           OpMode{Op::Div, 0}, OpMode{Op::DivMod, 0}, OpMode{Op::DivMod, 1},
                                           OpMode{Op::DivMod, 2}),
                         op_mode_name);

class ScalarDtypes : public ::testing::TestWithParam<OpMode> {};

TEST_P(ScalarDtypes, AllTriples) {
  const OpMode p = GetParam();
  Stats s;
  int k = 0;
  Rng rng(seed_of(2, int(p.op), p.mode));
  for (aclDataType a : compute_dtypes())
    for (aclDataType b : compute_dtypes())
      for (aclDataType o : compute_dtypes()) {
        const ScalarDesc al = alphas()[static_cast<size_t>(k++) % alphas().size()];
        const ScalarDesc sc(b, random_value(b, rng));
        run_case(scalar_case(p.op, {a, {3, 4}}, sc, {o, {3, 4}}, al, p.mode), seed_of(3, int(p.op), p.mode, k), &s);
      }
  EXPECT_EQ(s.cases, 1000);
  EXPECT_GT(s.elements, 0);
  s.print(op_mode_str(p));
}

INSTANTIATE_TEST_SUITE_P(arith, ScalarDtypes,
                         ::testing::Values(OpMode{Op::Adds, 0}, OpMode{Op::Subs, 0}, OpMode{Op::Muls, 0},
                                           OpMode{Op::Divs, 0}, OpMode{Op::DivMods, 0}, OpMode{Op::DivMods, 1},
                                           OpMode{Op::DivMods, 2}),
                         op_mode_name);

class InplaceDtypes : public ::testing::TestWithParam<OpMode> {};

TEST_P(InplaceDtypes, AllPairs) {
  const OpMode p = GetParam();
  const OpTraits& t = traits(p.op);
  Rng rng(seed_of(4, int(p.op), p.mode));
  int k = 0;
  for (aclDataType a : compute_dtypes())
    for (aclDataType b : compute_dtypes())
      for (const ScalarDesc& al : {alphas()[0], alphas()[static_cast<size_t>(k) % alphas().size()]}) {
        ++k;
        if (t.scalar)
          run_case(scalar_case(p.op, {a, {2, 3}}, ScalarDesc(b, random_value(b, rng)), {}, al, p.mode), seed_of(5, k));
        else
          run_case(tensor_case(p.op, {a, {2, 3}}, {b, {1, 3}}, {}, al, p.mode), seed_of(6, k));
        if (!t.has_alpha()) break;
      }
}

INSTANTIATE_TEST_SUITE_P(
    arith, InplaceDtypes,
    ::testing::Values(OpMode{Op::InplaceAdd, 0}, OpMode{Op::InplaceAdds, 0}, OpMode{Op::InplaceSub, 0},
                      OpMode{Op::InplaceSubs, 0}, OpMode{Op::InplaceMul, 0}, OpMode{Op::InplaceMuls, 0},
                      OpMode{Op::InplaceDiv, 0}, OpMode{Op::InplaceDivs, 0}, OpMode{Op::InplaceDivMod, 0},
                      OpMode{Op::InplaceDivMod, 1},
                      OpMode{Op::InplaceDivMod, 2}, OpMode{Op::InplaceDivMods, 0}, OpMode{Op::InplaceDivMods, 1},
                      OpMode{Op::InplaceDivMods, 2}),
    op_mode_name);

// Every alpha dtype against every self dtype, tensor and scalar forms.
TEST(arith, AlphaDtypes) {
  int k = 0;
  for (Op op : {Op::Add, Op::Sub, Op::Adds, Op::Subs, Op::InplaceAdd, Op::InplaceSubs})
    for (aclDataType a : compute_dtypes())
      for (const ScalarDesc& al : alphas()) {
        ++k;
        const aclDataType o = a == ACL_BOOL ? ACL_BOOL : a;
        if (traits(op).scalar)
          run_case(scalar_case(op, {a, {7}}, ScalarDesc(ACL_INT64, 3), {o, {7}}, al), seed_of(7, k));
        else
          run_case(tensor_case(op, {a, {7}}, {a, {7}}, {o, {7}}, al), seed_of(8, k));
      }
}

// ---- shapes and layouts ------------------------------------------------------------------------------

// Runs every one of the twenty ops on the given operand layouts, for a few dtype combinations.
void run_all_ops(const TensorDesc& self, const TensorDesc& other, const TensorDesc& out, uint64_t seed) {
  const std::vector<std::pair<aclDataType, aclDataType>> dtypes = {
      {ACL_FLOAT, ACL_FLOAT}, {ACL_INT32, ACL_INT32}, {ACL_FLOAT16, ACL_FLOAT}, {ACL_INT8, ACL_UINT8}};
  // An in-place result written through a view with internal overlap (a stride-0 dim) has no
  // defined value: such selfRefs are only used with the out-of-place forms.
  bool overlapping = false;
  for (size_t i = 0; i < self.strides.size(); ++i) overlapping |= self.strides[i] == 0 && self.shape[i] > 1;
  int k = 0;
  for (Op op : kAllOps)
    for (auto [st, ot] : dtypes) {
      const OpTraits& t = traits(op);
      if (t.inplace && overlapping) continue;
      TensorDesc s = self, o = other, r = out;
      s.dtype = st;
      o.dtype = ot;
      r.dtype = t.scalar ? (is_floating(st) ? st : ACL_FLOAT) : promote_types(st, ot);
      if (t.kind == Kind::kDiv && !is_floating(r.dtype)) r.dtype = ACL_FLOAT;
      const ScalarDesc al = alphas()[static_cast<size_t>(k) % alphas().size()];
      const int mode = k % 3;
      ++k;
      if (t.scalar) run_case(scalar_case(op, s, ScalarDesc(ACL_DOUBLE, -1.75), r, al, mode), seed_of(seed, k));
      else run_case(tensor_case(op, s, o, r, al, mode), seed_of(seed, k));
    }
}

TEST(arith, ScalarShapedTensors) {
  run_all_ops({ACL_FLOAT, {}}, {ACL_FLOAT, {}}, {ACL_FLOAT, {}}, 10);
  run_all_ops({ACL_FLOAT, {}}, {ACL_FLOAT, {2, 3}}, {ACL_FLOAT, {2, 3}}, 11);  // in-place forms: 161002
  run_all_ops({ACL_FLOAT, {2, 3}}, {ACL_FLOAT, {}}, {ACL_FLOAT, {2, 3}}, 12);
  run_all_ops({ACL_FLOAT, {1}}, {ACL_FLOAT, {}}, {ACL_FLOAT, {1}}, 13);
  run_all_ops({ACL_FLOAT, {}}, {ACL_FLOAT, {1}}, {ACL_FLOAT, {1}}, 14);
}

TEST(arith, Broadcasting) {
  run_all_ops({ACL_FLOAT, {1}}, {ACL_FLOAT, {3}}, {ACL_FLOAT, {3}}, 20);
  run_all_ops({ACL_FLOAT, {3, 1}}, {ACL_FLOAT, {1, 4}}, {ACL_FLOAT, {3, 4}}, 21);
  run_all_ops({ACL_FLOAT, {1, 4}}, {ACL_FLOAT, {3, 1}}, {ACL_FLOAT, {3, 4}}, 22);
  run_all_ops({ACL_FLOAT, {2, 1, 4}}, {ACL_FLOAT, {3, 1}}, {ACL_FLOAT, {2, 3, 4}}, 23);
  run_all_ops({ACL_FLOAT, {2, 3, 4}}, {ACL_FLOAT, {4}}, {ACL_FLOAT, {2, 3, 4}}, 24);
  run_all_ops({ACL_FLOAT, {2, 3, 4}}, {ACL_FLOAT, {3, 1}}, {ACL_FLOAT, {2, 3, 4}}, 25);
  run_all_ops({ACL_FLOAT, {1, 1, 5}}, {ACL_FLOAT, {5}}, {ACL_FLOAT, {1, 1, 5}}, 26);
  run_all_ops({ACL_FLOAT, {600}}, {ACL_FLOAT, {1}}, {ACL_FLOAT, {600}}, 27);  // longer than one kernel chunk
  run_all_ops({ACL_FLOAT, {3, 700}}, {ACL_FLOAT, {3, 1}}, {ACL_FLOAT, {3, 700}}, 28);
}

TEST(arith, RankEight) {
  run_all_ops({ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 3}}, {ACL_FLOAT, {2, 1, 2, 1, 2, 3}},
              {ACL_FLOAT, {2, 1, 2, 2, 2, 1, 2, 3}}, 30);  // out shape wrong for the tensor forms: 161002
  run_all_ops({ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 3}}, {ACL_FLOAT, {2, 1, 2, 1, 2, 3}},
              {ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 3}}, 31);
  run_all_ops({ACL_FLOAT, {2, 2, 2, 2, 2, 2, 2, 3}}, {ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 1}},
              {ACL_FLOAT, {2, 2, 2, 2, 2, 2, 2, 3}}, 32);
  // Strided rank 8: a transposed view.
  const Shape sh = {2, 2, 2, 2, 2, 2, 2, 3};
  Shape st = contiguous_strides({3, 2, 2, 2, 2, 2, 2, 2});  // reversed dims
  std::reverse(st.begin(), st.end());
  run_all_ops({ACL_FLOAT, sh, st}, {ACL_FLOAT, {3}}, {ACL_FLOAT, sh}, 33);
}

TEST(arith, EmptyTensors) {
  run_all_ops({ACL_FLOAT, {0, 3}}, {ACL_FLOAT, {3}}, {ACL_FLOAT, {0, 3}}, 40);
  run_all_ops({ACL_FLOAT, {0, 3}}, {ACL_FLOAT, {1, 3}}, {ACL_FLOAT, {0, 3}}, 41);
  run_all_ops({ACL_FLOAT, {2, 0}}, {ACL_FLOAT, {2, 1}}, {ACL_FLOAT, {2, 0}}, 42);
  run_all_ops({ACL_FLOAT, {3}}, {ACL_FLOAT, {0, 3}}, {ACL_FLOAT, {0, 3}}, 43);  // in-place forms: 161002
  run_all_ops({ACL_FLOAT, {0}}, {ACL_FLOAT, {}}, {ACL_FLOAT, {0}}, 44);
  run_all_ops({ACL_FLOAT, {0, 3}}, {ACL_FLOAT, {2, 3}}, {ACL_FLOAT, {0, 3}}, 45);  // does not broadcast: 161002
}

TEST(arith, StridedViews) {
  // Transposed self ([3,4] over a [4,3] storage), step-2 other, offsets, gapped out.
  run_all_ops({ACL_FLOAT, {3, 4}, {1, 3}}, {ACL_FLOAT, {3, 4}, {8, 2}, 1}, {ACL_FLOAT, {3, 4}}, 50);
  run_all_ops({ACL_FLOAT, {3, 4}, {4, 1}, 5, 40}, {ACL_FLOAT, {4}, {3}, 2}, {ACL_FLOAT, {3, 4}, {1, 3}}, 51);
  run_all_ops({ACL_FLOAT, {3, 4}}, {ACL_FLOAT, {3, 4}, {1, 3}}, {ACL_FLOAT, {3, 4}, {10, 2}, 3}, 52);
  // A stride-0 broadcast view made directly with aclCreateTensor: [3,4] over 4 elements.
  run_all_ops({ACL_FLOAT, {3, 4}, {0, 1}}, {ACL_FLOAT, {3, 4}}, {ACL_FLOAT, {3, 4}}, 53);
  run_all_ops({ACL_FLOAT, {3, 4}}, {ACL_FLOAT, {3, 4}, {1, 0}, 2}, {ACL_FLOAT, {3, 4}}, 54);
  // Rows longer than a kernel chunk, strided.
  run_all_ops({ACL_FLOAT, {2, 1000}, {1, 2}}, {ACL_FLOAT, {1000}, {3}}, {ACL_FLOAT, {2, 1000}, {2000, 2}}, 55);
}

TEST(arith, InplaceOnStridedViews) {
  const std::vector<TensorDesc> selfs = {
      {ACL_FLOAT, {3, 4}, {1, 3}},       // transposed
      {ACL_FLOAT, {3, 4}, {8, 2}, 1},    // step 2, offset
      {ACL_FLOAT, {2, 3, 4}, {1, 8, 2}}, // permuted with gaps
  };
  int k = 0;
  for (const TensorDesc& s0 : selfs)
    for (Op op : {Op::InplaceAdd, Op::InplaceSub, Op::InplaceMul, Op::InplaceDiv, Op::InplaceDivMod, Op::InplaceAdds,
                  Op::InplaceSubs, Op::InplaceMuls, Op::InplaceDivs, Op::InplaceDivMods})
      for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8}) {
        TensorDesc s = s0;
        s.dtype = dt;
        ++k;
        const ScalarDesc al = alphas()[static_cast<size_t>(k) % alphas().size()];
        if (traits(op).scalar) {
          run_case(scalar_case(op, s, ScalarDesc(ACL_INT64, 3), {}, al, 1 + k % 2), seed_of(60, k));
        } else {
          run_case(tensor_case(op, s, {dt, {4}, {2}}, {}, al, 1 + k % 2), seed_of(61, k));  // broadcast other
          Case same = tensor_case(op, s, {}, {}, al, 1 + k % 2);
          same.other_is_self = true;  // other == selfRef
          run_case(same, seed_of(62, k));
        }
      }
}

TEST(arith, OtherIsSelf) {
  // The same aclTensor as self and other: out-of-place, and in-place (other == selfRef).
  int k = 0;
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::DivMod, Op::InplaceAdd, Op::InplaceSub, Op::InplaceMul,
                Op::InplaceDiv, Op::InplaceDivMod})
    for (aclDataType dt : compute_dtypes()) {
      ++k;
      const bool true_div = op == Op::Div || op == Op::DivMod;  // mode 0 below
      Case c = tensor_case(op, {dt, {4, 5}, {1, 4}}, {}, {true_div && !is_floating(dt) ? ACL_FLOAT : dt, {4, 5}},
                           alphas()[static_cast<size_t>(k) % alphas().size()], 0);
      c.other_is_self = true;
      run_case(c, seed_of(70, k));
      c.mode = 2;
      run_case(c, seed_of(71, k));
    }
}

// ---- randomized sweep over ops, dtypes, shapes and layouts -------------------------------------------

// A random non-overlapping layout for a view of shape s: contiguous, permuted, or padded (with
// an offset); inputs may also get a stride-0 dim.
TensorDesc random_layout(aclDataType dt, const Shape& s, Rng& rng, bool input) {
  TensorDesc d(dt, s);
  const int kind = static_cast<int>(rng() % (input ? 5 : 4));
  if (kind <= 1 || s.empty()) return d;
  const size_t n = s.size();
  Shape st(n, 0);
  if (kind == 2) {  // permuted dims
    std::vector<size_t> perm(n);
    for (size_t i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    int64_t acc = 1;
    for (size_t k = n; k-- > 0;) {
      st[perm[k]] = acc;
      acc *= std::max<int64_t>(s[perm[k]], 1);
    }
  } else if (kind == 3) {  // padded rows and a step in the last dim
    int64_t acc = 1 + static_cast<int64_t>(rng() % 2);
    for (size_t k = n; k-- > 0;) {
      st[k] = acc;
      acc = acc * std::max<int64_t>(s[k], 1) + static_cast<int64_t>(rng() % 3);
    }
  } else {  // one dim of stride 0
    st = contiguous_strides(s);
    st[rng() % n] = 0;
  }
  d.strides = st;
  d.offset = static_cast<int64_t>(rng() % 4);
  d.storage = d.needed_storage() + static_cast<int64_t>(rng() % 3);
  return d;
}

TEST(arith, RandomSweep) {
  Rng rng(20240601);
  Stats s;
  const int kCases = 2500;
  for (int n = 0; n < kCases; ++n) {
    const Op op = kAllOps[rng() % 20];
    const OpTraits& t = traits(op);
    // Broadcast shape, then which operand is full size in each dim.
    const size_t rank = rng() % 6;
    Shape shape(rank), sa(rank), sb(rank);
    for (size_t i = 0; i < rank; ++i) {
      shape[i] = static_cast<int64_t>(1 + rng() % 5);
      if (rng() % 60 == 0) shape[i] = 0;
      const int who = static_cast<int>(rng() % 4);  // 0,1: both full; 2: a only; 3: b only
      sa[i] = (who == 3 && !t.inplace) ? 1 : shape[i];
      sb[i] = who == 2 ? 1 : shape[i];
    }
    // Drop leading size-1 dims of the operands sometimes (rank broadcasting).
    auto drop_leading = [&](Shape x) {
      size_t k = 0;
      while (k < x.size() && x[k] == 1 && rng() % 2) ++k;
      return Shape(x.begin() + static_cast<long>(k), x.end());
    };
    if (!t.inplace) sa = drop_leading(sa);
    sb = drop_leading(sb);
    const aclDataType da = compute_dtypes()[rng() % 10], db = compute_dtypes()[rng() % 10];
    Case c;
    c.op = op;
    c.self = random_layout(da, sa, rng, t.inplace ? false : true);
    if (t.scalar) c.other_s = ScalarDesc(db, random_value(db, rng));
    else c.other = random_layout(db, sb, rng, true);
    c.alpha = rng() % 2 ? ScalarDesc(ACL_INT64, 1) : alphas()[rng() % alphas().size()];
    c.mode = static_cast<int>(rng() % 3);
    const Shape out_shape = t.scalar ? sa : shape;
    c.out = TensorDesc(ACL_FLOAT, out_shape);
    const aclDataType promoted = model(c).promoted;  // the out dtype does not matter for tensor forms
    aclDataType out_t = rng() % 5 < 3 ? promoted : compute_dtypes()[rng() % 10];
    if (t.kind == Kind::kDiv && !is_floating(out_t) && rng() % 2) out_t = ACL_FLOAT;
    c.out = random_layout(out_t, out_shape, rng, false);
    if (t.scalar) {  // the scalar rule may depend on out: pick out again among the accepted ones
      const aclDataType p2 = model(c).promoted;
      if (rng() % 5 < 3) c.out.dtype = p2;
    }
    run_case(c, seed_of(80, n), &s);
  }
  EXPECT_EQ(s.cases, kCases);
  EXPECT_GT(s.cases - s.rejected, kCases / 2) << "the sweep should mostly run valid cases";
  s.print("random sweep");
}

// ---- named semantics, with hand-written expected values -------------------------------------------

TEST(arithSemantics, Int8PlusInt64ScalarStaysInt8AndWraps) {
  // 300 becomes int8 44 before the addition; the result wraps in int8.
  const Case c = scalar_case(Op::Adds, {ACL_INT8, {4}}, ScalarDesc(ACL_INT64, 300), {ACL_INT8, {4}});
  expect_values(c, ints({1, 100, -128, 127}), {}, ints({45, -112, -84, -85}));
  // The result dtype is int8 even with an int32 out: still wrapped in int8 first.
  const Case wide = scalar_case(Op::Adds, {ACL_INT8, {2}}, ScalarDesc(ACL_INT64, 300), {ACL_INT32, {2}});
  expect_values(wide, ints({100, 1}), {}, ints({-112, 45}));
  // Muls and Subs follow the same rule.
  expect_values(scalar_case(Op::Muls, {ACL_INT8, {2}}, ScalarDesc(ACL_INT64, 300), {ACL_INT8, {2}}), ints({3, -1}), {},
                ints({-124, -44}));
  expect_values(scalar_case(Op::Subs, {ACL_INT8, {1}}, ScalarDesc(ACL_INT64, 300), {ACL_INT8, {1}}), ints({-100}), {},
                ints({112}));
}

TEST(arithSemantics, IntTensorDoubleScalarFollowsOut) {
  // 2^24 + 1 is not a float32: with a float32 out the sum is computed in float32.
  const std::vector<Num> x = ints({16777217, 3});
  expect_values(scalar_case(Op::Adds, {ACL_INT32, {2}}, ScalarDesc(ACL_DOUBLE, 0.5), {ACL_FLOAT, {2}}), x, {},
                reals({16777216.0, 3.5}));
  // With a float64 out it is computed in float64.
  expect_values(scalar_case(Op::Adds, {ACL_INT32, {2}}, ScalarDesc(ACL_DOUBLE, 0.5), {ACL_DOUBLE, {2}}), x, {},
                reals({16777217.5, 3.5}));
  // A float32 scalar gives float32 whatever the out.
  expect_values(scalar_case(Op::Adds, {ACL_INT32, {2}}, ScalarDesc(ACL_FLOAT, 0.5), {ACL_DOUBLE, {2}}), x, {},
                reals({16777216.0, 3.5}));
  // Muls with a double scalar and an int32 out computes in float64 and truncates (no cast check).
  expect_values(scalar_case(Op::Muls, {ACL_INT32, {3}}, ScalarDesc(ACL_DOUBLE, 2.5), {ACL_INT32, {3}}),
                ints({7, -7, 16777217}), {}, ints({17, -17, 41943042}));
  // ... and into a float32 out it computes in float32.
  expect_values(scalar_case(Op::Muls, {ACL_INT32, {1}}, ScalarDesc(ACL_DOUBLE, 1.0), {ACL_FLOAT, {1}}),
                ints({16777217}), {}, reals({16777216.0}));
}

TEST(arithSemantics, MixedDtypePromotion) {
  // uint8 + int8 -> int16: no wrap at 8 bits.
  expect_values(tensor_case(Op::Add, {ACL_UINT8, {2}}, {ACL_INT8, {2}}, {ACL_INT16, {2}}), ints({200, 255}),
                ints({100, -1}), ints({300, 254}));
  // ... and the int16 result cast to an int8 out wraps there.
  expect_values(tensor_case(Op::Add, {ACL_UINT8, {1}}, {ACL_INT8, {1}}, {ACL_INT8, {1}}), ints({200}), ints({100}),
                ints({44}));
  // bool + float -> float.
  expect_values(tensor_case(Op::Add, {ACL_BOOL, {2}}, {ACL_FLOAT, {2}}, {ACL_FLOAT, {2}}), ints({1, 0}),
                reals({0.5, 0.25}), reals({1.5, 0.25}));
  // bfloat16 + float16 -> float32: the exact sum, which neither 16-bit format holds.
  expect_values(tensor_case(Op::Add, {ACL_BF16, {1}}, {ACL_FLOAT16, {1}}, {ACL_FLOAT, {1}}), reals({1.0078125}),
                reals({0.0009765625}), reals({1.0087890625}));
  // int32 + float16 -> float16: the int32 operand is cast to float16 first (2049 -> 2048).
  expect_values(tensor_case(Op::Add, {ACL_INT32, {2}}, {ACL_FLOAT16, {2}}, {ACL_FLOAT, {2}}), ints({2049, 70000}),
                reals({0.5, 0.0}), reals({2048.5, kInf}));
  // int16 + bfloat16 -> bfloat16: 257 -> 256 first.
  expect_values(tensor_case(Op::Add, {ACL_INT16, {1}}, {ACL_BF16, {1}}, {ACL_DOUBLE, {1}}), ints({257}), reals({0.5}),
                reals({256.5}));
  // float32 result into a float64 out: computed in float32, then widened exactly.
  expect_values(tensor_case(Op::Add, {ACL_FLOAT, {1}}, {ACL_FLOAT, {1}}, {ACL_DOUBLE, {1}}), reals({0.1}), reals({0.2}),
                reals({static_cast<double>(0.1f + 0.2f)}));
  // int32 result into a float32 out.
  expect_values(tensor_case(Op::Add, {ACL_INT32, {2}}, {ACL_INT32, {2}}, {ACL_FLOAT, {2}}), ints({7, 2147483647}),
                ints({5, 1}), reals({12.0, -2147483648.0}));
  // float16 computed in float32 and rounded once to a float32 out.
  expect_values(tensor_case(Op::Mul, {ACL_FLOAT16, {1}}, {ACL_FLOAT16, {1}}, {ACL_FLOAT, {1}}), reals({1.0009765625}),
                reals({1.0009765625}), reals({1.0 + 1.0 / 512 + 1.0 / 1048576}));
}

TEST(arithSemantics, BoolArithmetic) {
  const std::vector<Num> a = ints({0, 0, 1, 1}), b = ints({0, 1, 0, 1});
  const TensorDesc v = {ACL_BOOL, {4}};
  expect_values(tensor_case(Op::Add, v, v, v), a, b, ints({0, 1, 1, 1}));
  expect_values(tensor_case(Op::Sub, v, v, v), a, b, ints({0, 1, 1, 0}));
  expect_values(tensor_case(Op::Mul, v, v, v), a, b, ints({0, 0, 0, 1}));
  expect_values(tensor_case(Op::Add, v, v, v, ScalarDesc(ACL_INT64, 0)), a, b, ints({0, 0, 1, 1}));
  expect_values(tensor_case(Op::Add, v, v, v, ScalarDesc(ACL_INT64, 2)), a, b, ints({0, 1, 1, 1}));
  // Bool results into wider outs are 0/1.
  expect_values(tensor_case(Op::Add, v, v, {ACL_INT32, {4}}), a, b, ints({0, 1, 1, 1}));
  expect_values(scalar_case(Op::Adds, v, ScalarDesc(ACL_BOOL, 1), {ACL_FLOAT, {4}}), a, {}, reals({1, 1, 1, 1}));
  // True division of bools computes in float32.
  expect_values(tensor_case(Op::Div, v, v, {ACL_FLOAT, {4}}), a, b, reals({kNaN, 0, kInf, 1}));
}

TEST(arithSemantics, IntegerWraps) {
  expect_values(tensor_case(Op::Add, {ACL_INT32, {2}}, {ACL_INT32, {2}}, {ACL_INT32, {2}}),
                ints({2147483647, -2147483647 - 1}), ints({1, -1}), ints({-2147483647 - 1, 2147483647}));
  expect_values(tensor_case(Op::Add, {ACL_INT64, {1}}, {ACL_INT64, {1}}, {ACL_INT64, {1}}),
                ints({std::numeric_limits<int64_t>::max()}), ints({1}), ints({std::numeric_limits<int64_t>::min()}));
  expect_values(tensor_case(Op::Sub, {ACL_UINT8, {2}}, {ACL_UINT8, {2}}, {ACL_UINT8, {2}}), ints({0, 5}), ints({1, 10}),
                ints({255, 251}));
  expect_values(tensor_case(Op::Mul, {ACL_INT16, {1}}, {ACL_INT16, {1}}, {ACL_INT16, {1}}), ints({300}), ints({300}),
                ints({24464}));
  // alpha * other wraps too: 1000000007 * 3 in int32.
  expect_values(tensor_case(Op::Add, {ACL_INT32, {1}}, {ACL_INT32, {1}}, {ACL_INT32, {1}},
                            ScalarDesc(ACL_INT64, 1000000007)),
                ints({1}), ints({3}), ints({static_cast<int32_t>(static_cast<uint32_t>(3000000022u))}));
}

TEST(arithSemantics, Division) {
  const TensorDesc i4 = {ACL_INT32, {5}}, f4 = {ACL_FLOAT, {5}};
  // True division of integers is float32.
  expect_values(tensor_case(Op::Div, i4, i4, f4), ints({7, -7, 1, 0, -1}), ints({2, 2, 0, 0, 0}),
                reals({3.5, -3.5, kInf, kNaN, -kInf}));
  // Truncating and floor division of integers; x / 0 = 0; the minimum / -1 wraps.
  const std::vector<Num> a = ints({-7, 7, 5, -2147483647 - 1, 6}), b = ints({2, -2, 0, -1, 3});
  expect_values(tensor_case(Op::DivMod, i4, i4, i4, {}, 1), a, b, ints({-3, -3, 0, -2147483647 - 1, 2}));
  expect_values(tensor_case(Op::DivMod, i4, i4, i4, {}, 2), a, b, ints({-4, -4, 0, -2147483647 - 1, 2}));
  expect_values(tensor_case(Op::DivMod, i4, i4, f4, {}, 0), a, b, reals({-3.5, -3.5, kInf, 2147483648.0, 2}));
  // Floats: PyTorch's floor_divide, signed zeros and infinities included.
  const TensorDesc f8 = {ACL_FLOAT, {8}};
  const std::vector<Num> x = reals({-7.5, 7.5, 1, -1, 0, -0.0, 5, -5}), y = reals({2, -2, 0, 0, 0, 3, kInf, kInf});
  expect_values(tensor_case(Op::DivMod, f8, f8, f8, {}, 2), x, y, reals({-4, -4, kInf, -kInf, kNaN, -0.0, 0, -1}));
  expect_values(tensor_case(Op::DivMod, f8, f8, f8, {}, 1), x, y, reals({-3, -3, kInf, -kInf, kNaN, -0.0, 0, -0.0}));
  // Divs of an integer tensor computes in float32; uint8 floor division.
  expect_values(scalar_case(Op::Divs, {ACL_INT32, {2}}, ScalarDesc(ACL_DOUBLE, 2.5), {ACL_FLOAT, {2}}), ints({5, -1}),
                {},
                reals({2.0, -0.4f}));
  expect_values(scalar_case(Op::DivMods, {ACL_UINT8, {2}}, ScalarDesc(ACL_INT64, 7), {ACL_UINT8, {2}}, {}, 2),
                ints({255, 6}), {}, ints({36, 0}));
}

TEST(arithSemantics, ScalarsRoundToThePromotedDtype) {
  // A float16 tensor computes with the scalar rounded to float16 (0.1 -> 0.0999755859375)...
  expect_values(scalar_case(Op::Muls, {ACL_FLOAT16, {1}}, ScalarDesc(ACL_DOUBLE, 0.1), {ACL_FLOAT, {1}}), reals({1024}),
                {}, reals({102.375}));
  // ... but alpha keeps float32 precision.
  expect_values(scalar_case(Op::Adds, {ACL_FLOAT16, {1}}, ScalarDesc(ACL_DOUBLE, 1024), {ACL_FLOAT, {1}},
                            ScalarDesc(ACL_DOUBLE, 0.1)),
                reals({0}), {}, reals({static_cast<double>(1024.0f * 0.1f)}));
  // Muls of bfloat16 computes in float32: the scalar is not rounded to bfloat16.
  expect_values(scalar_case(Op::Muls, {ACL_BF16, {1}}, ScalarDesc(ACL_DOUBLE, 1.01), {ACL_FLOAT, {1}}), reals({1}), {},
                reals({static_cast<double>(1.01f)}));
}

// ---- bad input: exact codes and messages naming the argument -------------------------------------

// Runs phase 1 of c expecting `code`, with the message naming `name` and the entry point.
void expect_rejected(const Case& c, int code, const std::string& name) {
  CaseRun r = make_args(c);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = call_phase1(c, r, &ws, &ex);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_EQ(st, code) << c.str() << ": " << msg;
  if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(ex);
  EXPECT_NE(msg.find(name), std::string::npos) << c.str() << ": message should name '" << name << "': " << msg;
  EXPECT_NE(msg.find(std::string("aclnn") + c.t().name), std::string::npos) << c.str() << ": " << msg;
}

// A valid float32 [2,3] case of op.
Case valid_case(Op op) {
  const TensorDesc f = {ACL_FLOAT, {2, 3}};
  return traits(op).scalar ? scalar_case(op, f, ScalarDesc(ACL_FLOAT, 2.0), f, {}, 1)
                           : tensor_case(op, f, f, f, {}, 1);
}

TEST(arithErrors, NullArguments) {
  for (Op op : kAllOps) {
    const Case c = valid_case(op);
    const OpTraits& t = c.t();
    CaseRun r = make_args(c);
    const aclTensor* other = r.other ? r.other->get() : nullptr;
    const aclScalar* other_s = r.other_s ? r.other_s->get() : nullptr;
    const aclScalar* alpha = r.alpha ? r.alpha->get() : nullptr;
    aclTensor* out = r.out ? r.out->get() : nullptr;
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    auto expect_null = [&](aclnnStatus st, const std::string& name) {
      const std::string msg = aclGetRecentErrMsg();
      EXPECT_EQ(st, ACLNN_ERR_PARAM_NULLPTR) << t.name << " with " << name << " = nullptr: " << msg;
      if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(ex);
      EXPECT_NE(msg.find(name), std::string::npos) << t.name << ": message should name '" << name << "': " << msg;
    };
    expect_null(phase1(op, nullptr, other, other_s, alpha, 1, out, &ws, &ex), t.inplace ? "selfRef" : "self");
    expect_null(phase1(op, r.self->get(), nullptr, nullptr, alpha, 1, out, &ws, &ex), "other");
    if (t.has_alpha()) expect_null(phase1(op, r.self->get(), other, other_s, nullptr, 1, out, &ws, &ex), "alpha");
    if (!t.inplace) expect_null(phase1(op, r.self->get(), other, other_s, alpha, 1, nullptr, &ws, &ex), "out");
    expect_null(phase1(op, r.self->get(), other, other_s, alpha, 1, out, nullptr, &ex), "workspaceSize");
    expect_null(phase1(op, r.self->get(), other, other_s, alpha, 1, out, &ws, nullptr), "executor");
    // A null pointer is reported before an invalid mode.
    if (t.divmod)
      expect_null(phase1(op, nullptr, other, other_s, alpha, 3, out, &ws, &ex), t.inplace ? "selfRef" : "self");
  }
}

TEST(arithErrors, UnsupportedDtypes) {
  for (Op op : kAllOps) {
    const OpTraits& t = traits(op);
    const std::string self_name = t.inplace ? "selfRef" : "self";
    for (aclDataType bad : {ACL_UINT32, ACL_COMPLEX64, ACL_UINT16, ACL_UINT64}) {
      Case c = valid_case(op);
      c.self.dtype = bad;
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, self_name);
      c = valid_case(op);
      if (t.scalar) c.other_s = ScalarDesc(bad, Num::integer(3));
      else c.other.dtype = bad;
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "other");
      if (t.has_alpha()) {
        c = valid_case(op);
        c.alpha = ScalarDesc(bad, Num::integer(1));
        expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "alpha");
      }
      if (!t.inplace) {
        c = valid_case(op);
        c.out.dtype = bad;
        expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "out");
      }
    }
  }
}

TEST(arithErrors, Shapes) {
  for (Op op : kAllOps) {
    const OpTraits& t = traits(op);
    const std::string self_name = t.inplace ? "selfRef" : "self";
    Case c = valid_case(op);
    if (!t.inplace) {  // out shape differs from the broadcast shape
      c.out.shape = {3, 2};
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "out");
      c.out.shape = {1, 2, 3};
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "out");
    }
    if (!t.scalar) {  // shapes that do not broadcast
      c = valid_case(op);
      c.other.shape = {4};
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "other");
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, self_name);
      c.other.shape = {3, 3};
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "other");
    }
    // Rank 9.
    const Shape r9 = {1, 1, 1, 1, 1, 1, 1, 2, 3};
    c = valid_case(op);
    c.self.shape = r9;
    c.out.shape = r9;
    expect_rejected(c, ACLNN_ERR_PARAM_INVALID, self_name);
    if (!t.scalar) {
      c = valid_case(op);
      c.other.shape = r9;
      c.out.shape = r9;
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "other");
    }
    // In-place forms cannot broadcast selfRef.
    if (t.inplace && !t.scalar) {
      c = valid_case(op);
      c.self.shape = {3};
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "selfRef");
      c.self.shape = {1, 3};
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "selfRef");
    }
  }
}

TEST(arithErrors, Casts) {
  const TensorDesc i = {ACL_INT32, {2, 3}}, f = {ACL_FLOAT, {2, 3}}, b = {ACL_BOOL, {2, 3}};
  // A floating alpha with integer or bool tensors.
  for (Op op : {Op::Add, Op::Sub, Op::InplaceAdd, Op::InplaceSub}) {
    expect_rejected(tensor_case(op, i, i, i, ScalarDesc(ACL_FLOAT, 1.0)), ACLNN_ERR_PARAM_INVALID, "alpha");
    expect_rejected(tensor_case(op, i, i, i, ScalarDesc(ACL_DOUBLE, 2.5)), ACLNN_ERR_PARAM_INVALID, "alpha");
    expect_rejected(tensor_case(op, b, b, b, ScalarDesc(ACL_FLOAT16, 1.0)), ACLNN_ERR_PARAM_INVALID, "alpha");
  }
  for (Op op : {Op::Adds, Op::Subs, Op::InplaceAdds, Op::InplaceSubs})
    expect_rejected(scalar_case(op, i, ScalarDesc(ACL_INT64, 1), i, ScalarDesc(ACL_BF16, 1.0)), ACLNN_ERR_PARAM_INVALID,
                    "alpha");
  // A floating result into an integer or bool out.
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::DivMod}) {
    expect_rejected(tensor_case(op, f, i, i, {}, 1), ACLNN_ERR_PARAM_INVALID, "out");
    expect_rejected(tensor_case(op, f, f, b, {}, 2), ACLNN_ERR_PARAM_INVALID, "out");
  }
  // An integer result into a bool out.
  expect_rejected(tensor_case(Op::Add, i, b, b), ACLNN_ERR_PARAM_INVALID, "out");
  // Adds of an int tensor and a float scalar is floating: not into int32 (Muls does not check).
  expect_rejected(scalar_case(Op::Adds, i, ScalarDesc(ACL_FLOAT, 0.5), i), ACLNN_ERR_PARAM_INVALID, "out");
  expect_rejected(scalar_case(Op::DivMods, i, ScalarDesc(ACL_FLOAT, 0.5), i, {}, 2), ACLNN_ERR_PARAM_INVALID, "out");
  expect_values(scalar_case(Op::Muls, i, ScalarDesc(ACL_FLOAT, 0.5), i), ints({1, 2, 3, -3, 5, 7}), {},
                ints({0, 1, 1, -1, 2, 3}));
  // In-place: a floating other into an integer selfRef.
  expect_rejected(tensor_case(Op::InplaceAdd, i, f, {}), ACLNN_ERR_PARAM_INVALID, "selfRef");
  expect_rejected(scalar_case(Op::InplaceSubs, i, ScalarDesc(ACL_DOUBLE, 0.5), {}), ACLNN_ERR_PARAM_INVALID, "selfRef");
}

TEST(arithErrors, DivModMode) {
  for (Op op : {Op::DivMod, Op::DivMods, Op::InplaceDivMod, Op::InplaceDivMods})
    for (int mode : {3, -1, 100}) {
      Case c = valid_case(op);
      c.mode = mode;
      expect_rejected(c, ACLNN_ERR_PARAM_INVALID, "mode");
    }
}

}  // namespace
