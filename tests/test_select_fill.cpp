// Selection, fill, copy, cast and ternary ops against references written here from the contract:
//  - Cast / InplaceCopy: PyTorch value conversion (to bool "!= 0", integers wrap, floating ->
//    integral truncates; out-of-range is left open) except NaN -> integer gives 0 (CANN's Cast doc);
//    InplaceCopy broadcasts src to selfRef, and reads every src element before any is overwritten
//    even when the two share memory.
//  - SWhere: condition (bool or uint8, nonzero = true) ? self : other in promote(self, other), then
//    converted to out.
//  - Clamp with scalar bounds computes in out's dtype (self and the bounds converted to it); with
//    tensor bounds in promote(self, bounds), then converted to out. y = x < lo ? lo : x, then
//    hi < y ? hi : y; NaN in x or a bound gives NaN.
//  - MaskedFill / Fill / Zero / One: the value converted to selfRef's dtype.
//  - Lerp: PyTorch's two-sided formula, |w| < 0.5 ? s + w(e - s) : e - (e - s)(1 - w); a scalar
//    weight is rounded to self's dtype first. Addcmul: s + v(t1 t2); Addcdiv: s + v(t1 / t2)
//    (int64: truncating division, x / 0 = 0); v rounded to the promoted dtype; integers wrap.
//    Floating results are compared with the exact (double) value: the bound is 4 units of the
//    compute precision (float32 for 16-bit inputs) on the magnitude of the terms, plus one unit of
//    the output dtype at the result (the final rounding; 16-bit results are rounded twice).
// Every case prints a one-line repro (op, descriptors, attributes) on failure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_zero.h"
#include "op_test_util.h"

namespace {

using namespace optest;

// ---- running an op ------------------------------------------------------------------------------

using Phase1 = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Phase 1, a workspace if asked for, phase 2, synchronize. The first failing status.
aclnnStatus run_op(const Phase1& p1, Phase2 p2) {
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st = p1(&ws_size, &ex);
  if (st != ACL_SUCCESS) return st;
  void* ws = nullptr;
  if (ws_size && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
  st = p2(ws, ws_size, ex, stream());
  if (st == ACL_SUCCESS) st = aclrtSynchronizeStream(stream());
  if (ws) aclrtFree(ws);
  return st;
}

// Phase 1 must fail with `code`, and the message must name `mention`.
void expect_rejected(const std::string& repro, aclnnStatus code, const char* mention, const Phase1& p1) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st = p1(&ws, &ex);
  EXPECT_EQ(st, code) << repro;
  if (st == ACL_SUCCESS) {
    aclDestroyAclOpExecutor(ex);
    return;
  }
  const std::string msg = aclGetRecentErrMsg();
  if (mention) {
    EXPECT_NE(msg.find(mention), std::string::npos) << repro << ": message does not name '" << mention << "': " << msg;
  }
}

// ---- the contract -------------------------------------------------------------------------------

// PyTorch's promote_types, from its rules: bool yields; floating beats integral; float16 with
// bfloat16 gives float32, else the wider float; uint8 with int8 gives int16, else the wider integer.
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

// Cast's conversion: NaN -> integer gives 0, the rest as PyTorch.
Num convert(const Num& v, aclDataType from, aclDataType to) {
  if (is_floating(from) && is_integral(to) && std::isnan(v.f)) return Num::integer(0);
  return cast(v, to);
}

// View element of t (its storage snapshot `bytes`) that output index `out_idx` reads (broadcast).
Num value_at(const Tensor& t, const std::vector<uint8_t>& bytes, const Shape& out_idx) {
  const Shape& s = t.desc().shape;
  Shape idx(s.size());
  const size_t lead = out_idx.size() - s.size();
  for (size_t i = 0; i < s.size(); ++i) idx[i] = s[i] == 1 ? 0 : out_idx[lead + i];
  return t.at(bytes, idx);
}

// ---- comparing ----------------------------------------------------------------------------------

struct Expected {
  Num value;        // exact: already in the out dtype; approximate: the exact result as a double
  double tol = -1;  // < 0: exact; else the allowed error on top of one unit of the out dtype
};
Expected exact(const Num& v) { return Expected{v, -1}; }

// Spacing of floating dtype t at |x|.
double ulp_of(aclDataType t, double x) {
  int mant = 52, emin = -1022;
  if (t == ACL_FLOAT) mant = 23, emin = -126;
  if (t == ACL_FLOAT16) mant = 10, emin = -14;
  if (t == ACL_BF16) mant = 7, emin = -126;
  const int e = x == 0 ? emin : std::max(std::ilogb(x), emin);
  return std::ldexp(1.0, e - mant);
}

double max_finite(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return 65504.0;
    case ACL_BF16: return bf16_value(0x7f7f);
    case ACL_FLOAT: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

bool matches(aclDataType t, const Expected& e, const Num& a) {
  if (e.value.undefined) return true;
  if (e.tol < 0) return same_value(t, e.value, a);
  const double r = e.value.as_double();
  if (std::isnan(r) || std::isnan(a.f)) return std::isnan(r) && std::isnan(a.f);
  if (std::isinf(r)) return a.f == r;
  if (std::isinf(a.f))  // overflow is right only if the result may round past the largest finite value
    return std::signbit(a.f) == std::signbit(r) &&
           std::fabs(r) + e.tol + ulp_of(t, max_finite(t)) / 2 >= max_finite(t);
  return std::fabs(a.f - r) <= e.tol + ulp_of(t, r);
}

// Downloads out and compares every view element with ref(index); checks nothing outside the view
// changed (`before`: out's storage before the op).
void check_output(const std::string& repro, Tensor& out, const std::vector<uint8_t>& before,
                  const std::function<Expected(const Shape&)>& ref) {
  out.download();
  const aclDataType t = out.desc().dtype;
  int bad = 0;
  for_each_index(out.desc().shape, [&](const Shape& idx) {
    const Expected e = ref(idx);
    const Num a = out.at(idx);
    if (matches(t, e, a)) return;
    if (bad++ < 4)
      ADD_FAILURE() << repro << "\n  at " << shape_str(idx) << ": expected " << num_str(e.value)
                    << (e.tol >= 0 ? " (approx)" : "") << ", got " << num_str(a);
  });
  const std::string outside = writes_outside_view(out, before);
  EXPECT_TRUE(outside.empty()) << repro << ": wrote outside the view:" << outside;
}

// Moderate floating values (|x| <= 100) mixed with the special ones (0, -0, +-inf, nan, +-1, the
// smallest denormal): the exact result then never overflows where the compute type does not.
// Integral and bool dtypes take any value.
Num moderate_value(aclDataType t, Rng& rng) {
  if (!is_floating(t)) return random_value(t, rng);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  if (u(rng) < 0.12) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = HUGE_VAL;
    const double dmin = t == ACL_FLOAT16 ? std::ldexp(1.0, -24)
                        : t == ACL_BF16  ? std::ldexp(1.0, -133)
                        : t == ACL_FLOAT ? std::numeric_limits<float>::denorm_min()
                                         : std::numeric_limits<double>::denorm_min();
    const double s[] = {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, dmin};
    return Num::real(s[std::uniform_int_distribution<int>(0, 7)(rng)]);
  }
  return cast(Num::real(std::uniform_real_distribution<double>(-100.0, 100.0)(rng)), t);
}

void fill_moderate(Tensor& t, Rng& rng) {
  const size_t es = dtype_size(t.desc().dtype);
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k)
    store(t.desc().dtype, t.host().data() + k * es, moderate_value(t.desc().dtype, rng));
  t.upload();
}

// A descriptor of dtype t over shape s that is not contiguous (every second element of a wider
// storage, offset by one).
TensorDesc strided(aclDataType t, const Shape& s) {
  Shape st = contiguous_strides(s);
  for (auto& x : st) x *= 2;
  return TensorDesc(t, s, st, 1);
}

const aclDataType kNumeric[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};

// ================================================================================================
// Cast
// ================================================================================================

void check_cast(Rng& rng, const TensorDesc& sd, aclDataType dtype, const TensorDesc& od) {
  const std::string repro = "Cast self=" + sd.str() + " dtype=" + dtype_name(dtype) + " out=" + od.str();
  Tensor self(sd), out(od);
  self.fill_random(rng);
  out.fill_random(rng);
  const auto s0 = self.host(), o0 = out.host();
  ASSERT_EQ(run_op([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnCastGetWorkspaceSize(self.get(), dtype, out.get(), ws, ex);
            }, aclnnCast), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  check_output(repro, out, o0, [&](const Shape& i) { return exact(convert(value_at(self, s0, i), sd.dtype, od.dtype)); });
}

TEST(Cast, EveryDtypePair) {
  Rng rng(1);
  for (aclDataType a : compute_dtypes())
    for (aclDataType b : compute_dtypes()) check_cast(rng, TensorDesc(a, {4, 67}), b, TensorDesc(b, {4, 67}));
}

TEST(Cast, StridedOffsetZeroDimAndEmpty) {
  Rng rng(2);
  check_cast(rng, TensorDesc(ACL_FLOAT, {5, 3}, {1, 5}), ACL_FLOAT16, TensorDesc(ACL_FLOAT16, {5, 3}));
  check_cast(rng, strided(ACL_BF16, {3, 4, 5}), ACL_INT32, strided(ACL_INT32, {3, 4, 5}));
  check_cast(rng, TensorDesc(ACL_INT64, {2, 600}), ACL_DOUBLE, TensorDesc(ACL_DOUBLE, {2, 600}, {1, 2}));
  check_cast(rng, TensorDesc(ACL_DOUBLE, {}), ACL_INT8, TensorDesc(ACL_INT8, {}));
  check_cast(rng, TensorDesc(ACL_FLOAT, {3, 0}), ACL_BOOL, TensorDesc(ACL_BOOL, {3, 0}));
  check_cast(rng, TensorDesc(ACL_UINT8, {2, 1, 2, 1, 2, 1, 2, 3}), ACL_FLOAT16,
             TensorDesc(ACL_FLOAT16, {2, 1, 2, 1, 2, 1, 2, 3}));
}

TEST(Cast, SpecialValues) {
  // NaN -> integer is 0 (CANN); to bool is "!= 0" (NaN and -0.0 included); in-range truncation.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> vals = {nan, -nan, 0.0, -0.0, 2.9, -2.9, 127.0, -128.0, 1e-40, HUGE_VAL};
  for (aclDataType from : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE})
    for (aclDataType to : {ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_FLOAT16}) {
      const TensorDesc sd(from, {static_cast<int64_t>(vals.size())}), od(to, sd.shape);
      const std::string repro = std::string("Cast self=") + sd.str() + " (special values) dtype=" + dtype_name(to);
      Tensor self(sd), out(od);
      for (size_t k = 0; k < vals.size(); ++k) self.set({static_cast<int64_t>(k)}, Num::real(vals[k]));
      self.upload();
      out.fill(Num::integer(0));
      const auto s0 = self.host(), o0 = out.host();
      ASSERT_EQ(run_op([&](uint64_t* ws, aclOpExecutor** ex) {
                  return aclnnCastGetWorkspaceSize(self.get(), to, out.get(), ws, ex);
                }, aclnnCast), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
      check_output(repro, out, o0, [&](const Shape& i) { return exact(convert(value_at(self, s0, i), from, to)); });
    }
}

TEST(Cast, BadArguments) {
  Tensor f({ACL_FLOAT, {2, 3}}), h({ACL_FLOAT16, {2, 3}}), c({ACL_COMPLEX64, {2, 3}}), h4({ACL_FLOAT16, {3, 2}});
  Tensor big({ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 2}}), bigo({ACL_INT32, {1, 1, 1, 1, 1, 1, 1, 1, 2}});
  auto cast = [](const Tensor* s, aclDataType d, const Tensor* o) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnCastGetWorkspaceSize(s ? s->get() : nullptr, d, o ? o->get() : nullptr, ws, ex);
    };
  };
  expect_rejected("Cast self=null", ACLNN_ERR_PARAM_NULLPTR, "self", cast(nullptr, ACL_FLOAT16, &h));
  expect_rejected("Cast out=null", ACLNN_ERR_PARAM_NULLPTR, "out", cast(&f, ACL_FLOAT16, nullptr));
  expect_rejected("Cast out dtype != dtype", ACLNN_ERR_PARAM_INVALID, "out", cast(&f, ACL_INT32, &h));
  expect_rejected("Cast dtype=uint16", ACLNN_ERR_PARAM_INVALID, "dtype", cast(&f, ACL_UINT16, &h));
  expect_rejected("Cast self=complex64", ACLNN_ERR_PARAM_INVALID, "self", cast(&c, ACL_FLOAT16, &h));
  expect_rejected("Cast shape mismatch", ACLNN_ERR_PARAM_INVALID, "out", cast(&f, ACL_FLOAT16, &h4));
  expect_rejected("Cast rank 9", ACLNN_ERR_PARAM_INVALID, "self", cast(&big, ACL_INT32, &bigo));
}

// ================================================================================================
// InplaceCopy
// ================================================================================================

void check_copy(Rng& rng, const TensorDesc& dd, const TensorDesc& sd) {
  const std::string repro = "InplaceCopy selfRef=" + dd.str() + " src=" + sd.str();
  Tensor self(dd), src(sd);
  self.fill_random(rng);
  src.fill_random(rng);
  const auto d0 = self.host(), s0 = src.host();
  ASSERT_EQ(run_op([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnInplaceCopyGetWorkspaceSize(self.get(), src.get(), ws, ex);
            }, aclnnInplaceCopy), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  check_output(repro, self, d0, [&](const Shape& i) { return exact(convert(value_at(src, s0, i), sd.dtype, dd.dtype)); });
}

TEST(InplaceCopy, EveryDtypePairBroadcast) {
  Rng rng(3);
  for (aclDataType a : compute_dtypes())
    for (aclDataType b : compute_dtypes()) check_copy(rng, TensorDesc(a, {3, 41}), TensorDesc(b, {41}));
}

TEST(InplaceCopy, StridedZeroDimAndEmpty) {
  Rng rng(4);
  check_copy(rng, strided(ACL_FLOAT, {4, 5, 6}), TensorDesc(ACL_FLOAT, {4, 1, 6}));
  check_copy(rng, TensorDesc(ACL_INT16, {5, 3}, {1, 5}), TensorDesc(ACL_DOUBLE, {5, 3}));
  check_copy(rng, TensorDesc(ACL_BF16, {2, 3}), TensorDesc(ACL_INT64, {}));
  check_copy(rng, TensorDesc(ACL_FLOAT16, {}), TensorDesc(ACL_FLOAT, {}));
  check_copy(rng, TensorDesc(ACL_INT8, {0, 4}), TensorDesc(ACL_INT8, {4}));
  check_copy(rng, TensorDesc(ACL_UINT8, {2, 1025}), TensorDesc(ACL_BOOL, {2, 1025}, {1, 2}));
}

// Two views of one device buffer of 32 float32 values 0..31.
struct SharedBuffer {
  void* dev = nullptr;
  SharedBuffer() {
    std::vector<float> h(32);
    for (int i = 0; i < 32; ++i) h[i] = static_cast<float>(i);
    EXPECT_EQ(aclrtMalloc(&dev, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(dev, 128, h.data(), 128, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  ~SharedBuffer() { aclrtFree(dev); }
  aclTensor* view(Shape shape, Shape strides, int64_t offset) const {
    const int64_t storage[1] = {32};
    return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), offset, ACL_FORMAT_ND, storage, 1,
                           dev);
  }
  std::vector<float> read() const {
    std::vector<float> h(32);
    EXPECT_EQ(aclrtMemcpy(h.data(), 128, dev, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return h;
  }
};

TEST(InplaceCopy, OverlappingSourceIsReadBeforeWritten) {
  struct Alias {
    const char* repro;
    Shape dst_shape, dst_strides;
    int64_t dst_off;
    Shape src_shape, src_strides;
    int64_t src_off;
  };
  const Alias cases[] = {
      {"selfRef=x[3:23] src=x[0:20]", {20}, {1}, 3, {20}, {1}, 0},
      {"selfRef=x[0:20] src=x[3:23]", {20}, {1}, 0, {20}, {1}, 3},
      {"selfRef=x[0:16].view(4,4) src=x[0:4] (broadcast)", {4, 4}, {4, 1}, 0, {4}, {1}, 0},
      {"selfRef=x[0:16].view(4,4) src=its transpose", {4, 4}, {4, 1}, 0, {4, 4}, {1, 4}, 0},
      {"selfRef=x[0:20] src=x[0:20] (same view)", {20}, {1}, 0, {20}, {1}, 0},
  };
  for (const Alias& c : cases) {
    SharedBuffer buf;
    const std::vector<float> before = buf.read();
    aclTensor* dst = buf.view(c.dst_shape, c.dst_strides, c.dst_off);
    aclTensor* src = buf.view(c.src_shape, c.src_strides, c.src_off);
    ASSERT_EQ(run_op([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceCopyGetWorkspaceSize(dst, src, ws, ex); },
                     aclnnInplaceCopy), ACL_SUCCESS) << "InplaceCopy " << c.repro << ": " << aclGetRecentErrMsg();
    std::vector<float> expected = before;
    const TensorDesc dd(ACL_FLOAT, c.dst_shape, c.dst_strides, c.dst_off), sd(ACL_FLOAT, c.src_shape, c.src_strides, c.src_off);
    for_each_index(dd.shape, [&](const Shape& i) {
      Shape si(sd.shape.size());
      for (size_t k = 0; k < si.size(); ++k) si[k] = sd.shape[k] == 1 ? 0 : i[i.size() - si.size() + k];
      expected[static_cast<size_t>(dd.storage_index(i))] = before[static_cast<size_t>(sd.storage_index(si))];
    });
    EXPECT_EQ(buf.read(), expected) << "InplaceCopy " << c.repro;
    aclDestroyTensor(dst);
    aclDestroyTensor(src);
  }
}

TEST(InplaceCopy, BadArguments) {
  Tensor a({ACL_FLOAT, {2, 3}}), wide({ACL_FLOAT, {4, 3}}), bad({ACL_FLOAT, {2, 4}}), c({ACL_COMPLEX64, {2, 3}});
  Tensor big({ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 2}});
  auto copy = [](const Tensor* d, const Tensor* s) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnInplaceCopyGetWorkspaceSize(d ? d->get() : nullptr, s ? s->get() : nullptr, ws, ex);
    };
  };
  expect_rejected("InplaceCopy selfRef=null", ACLNN_ERR_PARAM_NULLPTR, "selfRef", copy(nullptr, &a));
  expect_rejected("InplaceCopy src=null", ACLNN_ERR_PARAM_NULLPTR, "src", copy(&a, nullptr));
  expect_rejected("InplaceCopy src [4,3] into [2,3]", ACLNN_ERR_PARAM_INVALID, "src", copy(&a, &wide));
  expect_rejected("InplaceCopy src [2,4] into [2,3]", ACLNN_ERR_PARAM_INVALID, "src", copy(&a, &bad));
  expect_rejected("InplaceCopy src=complex64", ACLNN_ERR_PARAM_INVALID, "src", copy(&a, &c));
  expect_rejected("InplaceCopy rank 9", ACLNN_ERR_PARAM_INVALID, "selfRef", copy(&big, &a));
}

// ================================================================================================
// SWhere
// ================================================================================================

void check_where(Rng& rng, const TensorDesc& cd, const TensorDesc& sd, const TensorDesc& od, const TensorDesc& outd) {
  const std::string repro =
      "SWhere condition=" + cd.str() + " self=" + sd.str() + " other=" + od.str() + " out=" + outd.str();
  Tensor cond(cd), self(sd), other(od), out(outd);
  cond.fill_random(rng);
  self.fill_random(rng);
  other.fill_random(rng);
  out.fill_random(rng);
  const auto c0 = cond.host(), s0 = self.host(), x0 = other.host(), o0 = out.host();
  ASSERT_EQ(run_op([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnSWhereGetWorkspaceSize(cond.get(), self.get(), other.get(), out.get(), ws, ex);
            }, aclnnSWhere), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  const aclDataType p = promote_types(sd.dtype, od.dtype);
  check_output(repro, out, o0, [&](const Shape& i) {
    const Num v = value_at(cond, c0, i).nonzero() ? value_at(self, s0, i) : value_at(other, x0, i);
    return exact(cast(cast(v, p), outd.dtype));
  });
}

TEST(SWhere, EveryDtypePairBroadcast) {
  Rng rng(5);
  for (aclDataType a : compute_dtypes())
    for (aclDataType b : compute_dtypes()) {
      const aclDataType p = promote_types(a, b);
      check_where(rng, TensorDesc(ACL_BOOL, {3, 1, 7}), TensorDesc(a, {1, 4, 7}), TensorDesc(b, {7}),
                  TensorDesc(p, {3, 4, 7}));
    }
}

TEST(SWhere, Uint8ConditionOutDtypesStridedEmpty) {
  Rng rng(6);
  check_where(rng, TensorDesc(ACL_UINT8, {4, 9}), TensorDesc(ACL_FLOAT, {4, 9}), TensorDesc(ACL_FLOAT, {4, 9}),
              TensorDesc(ACL_FLOAT, {4, 9}));
  check_where(rng, strided(ACL_UINT8, {5, 6}), TensorDesc(ACL_INT32, {5, 6}, {1, 5}), TensorDesc(ACL_INT8, {}),
              strided(ACL_DOUBLE, {5, 6}));
  // CANN converts the promoted result to any out dtype.
  check_where(rng, TensorDesc(ACL_BOOL, {8}), TensorDesc(ACL_FLOAT16, {8}), TensorDesc(ACL_BF16, {8}),
              TensorDesc(ACL_INT64, {8}));
  check_where(rng, TensorDesc(ACL_BOOL, {}), TensorDesc(ACL_BOOL, {}), TensorDesc(ACL_BOOL, {}),
              TensorDesc(ACL_BOOL, {}));
  check_where(rng, TensorDesc(ACL_BOOL, {0, 3}), TensorDesc(ACL_FLOAT, {3}), TensorDesc(ACL_FLOAT, {1}),
              TensorDesc(ACL_FLOAT, {0, 3}));
  check_where(rng, TensorDesc(ACL_BOOL, {2, 700}), TensorDesc(ACL_FLOAT16, {2, 700}), TensorDesc(ACL_FLOAT16, {700}),
              TensorDesc(ACL_FLOAT16, {2, 700}, {1, 2}));
}

TEST(SWhere, BadArguments) {
  Tensor c({ACL_BOOL, {2, 3}}), ci({ACL_INT32, {2, 3}}), s({ACL_FLOAT, {2, 3}}), o({ACL_FLOAT, {2, 3}});
  Tensor out({ACL_FLOAT, {2, 3}}), out_bad({ACL_FLOAT, {3, 3}}), other_bad({ACL_FLOAT, {4}}), cx({ACL_COMPLEX64, {2, 3}});
  auto where = [](const Tensor* c_, const Tensor* s_, const Tensor* o_, const Tensor* out_) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnSWhereGetWorkspaceSize(c_ ? c_->get() : nullptr, s_ ? s_->get() : nullptr, o_ ? o_->get() : nullptr,
                                         out_ ? out_->get() : nullptr, ws, ex);
    };
  };
  expect_rejected("SWhere condition=null", ACLNN_ERR_PARAM_NULLPTR, "condition", where(nullptr, &s, &o, &out));
  expect_rejected("SWhere other=null", ACLNN_ERR_PARAM_NULLPTR, "other", where(&c, &s, nullptr, &out));
  expect_rejected("SWhere out=null", ACLNN_ERR_PARAM_NULLPTR, "out", where(&c, &s, &o, nullptr));
  expect_rejected("SWhere condition=int32", ACLNN_ERR_PARAM_INVALID, "condition", where(&ci, &s, &o, &out));
  expect_rejected("SWhere other=complex64", ACLNN_ERR_PARAM_INVALID, "other", where(&c, &s, &cx, &out));
  expect_rejected("SWhere other=[4]", ACLNN_ERR_PARAM_INVALID, "other", where(&c, &s, &other_bad, &out));
  expect_rejected("SWhere out=[3,3]", ACLNN_ERR_PARAM_INVALID, "out", where(&c, &s, &o, &out_bad));
}

// ================================================================================================
// Clamp
// ================================================================================================

// clamp in exact arithmetic over values of one dtype t; `lo`/`hi` may be absent (nullptr).
Num clamp_ref(aclDataType t, const Num& x, const Num* lo, const Num* hi) {
  if (is_floating(t)) {
    if (std::isnan(x.f)) return x;
    if (lo && std::isnan(lo->f)) return *lo;
    if (hi && std::isnan(hi->f)) return *hi;
    double y = x.f;
    if (lo && y < lo->f) y = lo->f;
    if (hi && hi->f < y) y = hi->f;
    return Num::real(y);
  }
  int64_t y = x.i;
  if (lo && y < lo->i) y = lo->i;
  if (hi && hi->i < y) y = hi->i;
  return Num::integer(y);
}

enum class ClampOp { Clamp, ClampMin, ClampMax, InplaceClampMax };

void check_clamp_scalar(Rng& rng, ClampOp op, const TensorDesc& sd, const ScalarDesc* lo, const ScalarDesc* hi,
                        const TensorDesc& od) {
  const bool inplace = op == ClampOp::InplaceClampMax;
  const char* names[] = {"Clamp", "ClampMin", "ClampMax", "InplaceClampMax"};
  std::string repro = std::string(names[static_cast<int>(op)]) + (inplace ? " selfRef=" : " self=") + sd.str();
  repro += " clipValueMin=" + (lo ? lo->str() : std::string("null"));
  repro += " clipValueMax=" + (hi ? hi->str() : std::string("null"));
  if (!inplace) repro += " out=" + od.str();
  Tensor self(sd), out(inplace ? TensorDesc(ACL_FLOAT, {}) : od);
  self.fill_random(rng);
  out.fill_random(rng);
  Scalar lo_s(lo ? *lo : ScalarDesc()), hi_s(hi ? *hi : ScalarDesc());
  const aclScalar* lp = lo ? lo_s.get() : nullptr;
  const aclScalar* hp = hi ? hi_s.get() : nullptr;
  const auto s0 = self.host(), o0 = out.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    switch (op) {
      case ClampOp::Clamp: return aclnnClampGetWorkspaceSize(self.get(), lp, hp, out.get(), ws, ex);
      case ClampOp::ClampMin: return aclnnClampMinGetWorkspaceSize(self.get(), lp, out.get(), ws, ex);
      case ClampOp::ClampMax: return aclnnClampMaxGetWorkspaceSize(self.get(), hp, out.get(), ws, ex);
      case ClampOp::InplaceClampMax: return aclnnInplaceClampMaxGetWorkspaceSize(self.get(), hp, ws, ex);
    }
    return -1;
  };
  const Phase2 p2[] = {aclnnClamp, aclnnClampMin, aclnnClampMax, aclnnInplaceClampMax};
  ASSERT_EQ(run_op(p1, p2[static_cast<int>(op)]), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  Tensor& result = inplace ? self : out;
  const aclDataType t = result.desc().dtype;  // scalar bounds compute in out's dtype
  const Num lo_c = lo ? cast(lo->value, t) : Num(), hi_c = hi ? cast(hi->value, t) : Num();
  check_output(repro, result, inplace ? s0 : o0, [&](const Shape& i) {
    return exact(clamp_ref(t, cast(value_at(self, s0, i), t), lo ? &lo_c : nullptr, hi ? &hi_c : nullptr));
  });
}

TEST(Clamp, ScalarBoundsEveryDtype) {
  Rng rng(7);
  const ScalarDesc lo_i(ACL_INT64, -3.0), hi_i(ACL_INT64, 9.0), lo_f(ACL_DOUBLE, -2.5), hi_f(ACL_FLOAT, 7.75);
  for (aclDataType t : kNumeric) {
    const TensorDesc d(t, {3, 37});
    const bool fl = is_floating(t);
    check_clamp_scalar(rng, ClampOp::Clamp, d, fl ? &lo_f : &lo_i, fl ? &hi_f : &hi_i, d);
    check_clamp_scalar(rng, ClampOp::Clamp, d, &lo_i, nullptr, d);
    check_clamp_scalar(rng, ClampOp::Clamp, d, nullptr, &hi_i, d);
    check_clamp_scalar(rng, ClampOp::ClampMin, d, fl ? &lo_f : &lo_i, nullptr, d);
    check_clamp_scalar(rng, ClampOp::ClampMax, d, nullptr, fl ? &hi_f : &hi_i, d);
    check_clamp_scalar(rng, ClampOp::InplaceClampMax, strided(t, {4, 5}), nullptr, &hi_i, {});
    check_clamp_scalar(rng, ClampOp::Clamp, d, &hi_i, &lo_i, d);  // lo > hi: every element is hi
  }
}

TEST(Clamp, ScalarBoundsOutDtypeNanAndShapes) {
  Rng rng(8);
  const ScalarDesc lo(ACL_DOUBLE, -1.5), hi(ACL_DOUBLE, 100.25), nan(ACL_FLOAT, std::numeric_limits<double>::quiet_NaN());
  const ScalarDesc big(ACL_INT64, 300.0), bt(ACL_BOOL, 1.0);
  // Computed in out's dtype: the bounds are converted to it (300 wraps to 44 in int8, as a cast does).
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_INT32, {40}), &lo, &hi, TensorDesc(ACL_FLOAT, {40}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_FLOAT16, {40}), &lo, &hi, TensorDesc(ACL_DOUBLE, {40}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_INT8, {40}), &bt, &big, TensorDesc(ACL_INT8, {40}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_UINT8, {40}), &lo, &hi, TensorDesc(ACL_INT16, {40}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_FLOAT, {40}), &nan, &hi, TensorDesc(ACL_FLOAT, {40}));
  check_clamp_scalar(rng, ClampOp::ClampMax, TensorDesc(ACL_BF16, {40}), nullptr, &nan, TensorDesc(ACL_BF16, {40}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_DOUBLE, {6, 5}, {1, 6}), &lo, &hi, strided(ACL_DOUBLE, {6, 5}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_INT64, {}), &lo, &hi, TensorDesc(ACL_INT64, {}));
  check_clamp_scalar(rng, ClampOp::Clamp, TensorDesc(ACL_INT64, {0, 2}), &lo, &hi, TensorDesc(ACL_INT64, {0, 2}));
}

enum class ClampTOp { ClampTensor, ClampMinTensor, ClampMaxTensor, InplaceClampMinTensor, InplaceClampMaxTensor };

void check_clamp_tensor(Rng& rng, ClampTOp op, const TensorDesc& sd, const TensorDesc* lod, const TensorDesc* hid,
                        const TensorDesc& od, bool nan_bounds = false) {
  const bool inplace = op == ClampTOp::InplaceClampMinTensor || op == ClampTOp::InplaceClampMaxTensor;
  const char* names[] = {"ClampTensor", "ClampMinTensor", "ClampMaxTensor", "InplaceClampMinTensor",
                         "InplaceClampMaxTensor"};
  std::string repro = std::string(names[static_cast<int>(op)]) + (inplace ? " selfRef=" : " self=") + sd.str();
  repro += " clipValueMin=" + (lod ? lod->str() : std::string("null"));
  repro += " clipValueMax=" + (hid ? hid->str() : std::string("null"));
  if (!inplace) repro += " out=" + od.str();
  Tensor self(sd), out(inplace ? TensorDesc(ACL_FLOAT, {}) : od);
  Tensor lo_t(lod ? *lod : TensorDesc(ACL_FLOAT, {})), hi_t(hid ? *hid : TensorDesc(ACL_FLOAT, {}));
  self.fill_random(rng);
  out.fill_random(rng);
  FillOptions bounds;
  bounds.special = nan_bounds ? 0.3 : 0.0;
  lo_t.fill_random(rng, bounds);
  hi_t.fill_random(rng, bounds);
  const aclTensor* lp = lod ? lo_t.get() : nullptr;
  const aclTensor* hp = hid ? hi_t.get() : nullptr;
  const auto s0 = self.host(), o0 = out.host(), l0 = lo_t.host(), h0 = hi_t.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    switch (op) {
      case ClampTOp::ClampTensor: return aclnnClampTensorGetWorkspaceSize(self.get(), lp, hp, out.get(), ws, ex);
      case ClampTOp::ClampMinTensor: return aclnnClampMinTensorGetWorkspaceSize(self.get(), lp, out.get(), ws, ex);
      case ClampTOp::ClampMaxTensor: return aclnnClampMaxTensorGetWorkspaceSize(self.get(), hp, out.get(), ws, ex);
      case ClampTOp::InplaceClampMinTensor: return aclnnInplaceClampMinTensorGetWorkspaceSize(self.get(), lp, ws, ex);
      case ClampTOp::InplaceClampMaxTensor: return aclnnInplaceClampMaxTensorGetWorkspaceSize(self.get(), hp, ws, ex);
    }
    return -1;
  };
  const Phase2 p2[] = {aclnnClampTensor, aclnnClampMinTensor, aclnnClampMaxTensor, aclnnInplaceClampMinTensor,
                       aclnnInplaceClampMaxTensor};
  ASSERT_EQ(run_op(p1, p2[static_cast<int>(op)]), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  aclDataType p = sd.dtype;
  if (lod) p = promote_types(p, lod->dtype);
  if (hid) p = promote_types(p, hid->dtype);
  Tensor& result = inplace ? self : out;
  check_output(repro, result, inplace ? s0 : o0, [&](const Shape& i) {
    const Num lo = lod ? cast(value_at(lo_t, l0, i), p) : Num(), hi = hid ? cast(value_at(hi_t, h0, i), p) : Num();
    const Num r = clamp_ref(p, cast(value_at(self, s0, i), p), lod ? &lo : nullptr, hid ? &hi : nullptr);
    return exact(cast(r, result.desc().dtype));
  });
}

TEST(Clamp, TensorBoundsEveryDtype) {
  Rng rng(9);
  for (aclDataType t : kNumeric) {
    const TensorDesc self(t, {3, 4, 9}), lo(t, {4, 1}), hi(t, {3, 1, 9}), out(t, {3, 4, 9});
    check_clamp_tensor(rng, ClampTOp::ClampTensor, self, &lo, &hi, out);
    check_clamp_tensor(rng, ClampTOp::ClampTensor, self, &lo, nullptr, out);
    check_clamp_tensor(rng, ClampTOp::ClampMinTensor, self, &lo, nullptr, out);
    check_clamp_tensor(rng, ClampTOp::ClampMaxTensor, self, nullptr, &hi, out);
    check_clamp_tensor(rng, ClampTOp::InplaceClampMinTensor, strided(t, {3, 4, 9}), &lo, nullptr, {});
    check_clamp_tensor(rng, ClampTOp::InplaceClampMaxTensor, self, nullptr, &hi, {});
  }
}

TEST(Clamp, TensorBoundsPromotionNanAndShapes) {
  Rng rng(10);
  const TensorDesc lo_i8(ACL_INT8, {5}), hi_f16(ACL_FLOAT16, {2, 1}), lo_f(ACL_FLOAT, {5}), hi_bool(ACL_BOOL, {5});
  const TensorDesc lo_u8(ACL_UINT8, {}), hi_d(ACL_DOUBLE, {1, 5}, {7, 1}, 2);
  check_clamp_tensor(rng, ClampTOp::ClampTensor, TensorDesc(ACL_INT32, {2, 5}), &lo_i8, &hi_f16,
                     TensorDesc(ACL_FLOAT16, {2, 5}));
  check_clamp_tensor(rng, ClampTOp::ClampTensor, TensorDesc(ACL_INT8, {2, 5}), &lo_u8, &hi_bool,
                     TensorDesc(ACL_INT16, {2, 5}));
  check_clamp_tensor(rng, ClampTOp::ClampTensor, TensorDesc(ACL_BF16, {2, 5}), &lo_f, &hi_d,
                     TensorDesc(ACL_DOUBLE, {2, 5}), true);
  const TensorDesc lo_h2(ACL_FLOAT16, {2});
  check_clamp_tensor(rng, ClampTOp::ClampMinTensor, TensorDesc(ACL_FLOAT16, {5, 2}, {1, 5}), &lo_h2, nullptr,
                     TensorDesc(ACL_FLOAT, {5, 2}), true);
  check_clamp_tensor(rng, ClampTOp::InplaceClampMinTensor, TensorDesc(ACL_FLOAT, {3, 5}), &lo_i8, nullptr, {});
  check_clamp_tensor(rng, ClampTOp::ClampTensor, TensorDesc(ACL_INT64, {}), &lo_u8, nullptr, TensorDesc(ACL_INT64, {}));
  check_clamp_tensor(rng, ClampTOp::ClampTensor, TensorDesc(ACL_FLOAT, {0, 5}), &lo_f, &lo_f,
                     TensorDesc(ACL_FLOAT, {0, 5}));
}

TEST(Clamp, BadArguments) {
  Tensor f({ACL_FLOAT, {2, 3}}), i({ACL_INT32, {2, 3}}), b({ACL_BOOL, {2, 3}}), f33({ACL_FLOAT, {3, 3}});
  Tensor lo3({ACL_FLOAT, {3}}), lo4({ACL_FLOAT, {4}}), lo23({ACL_FLOAT, {3, 2, 3}}), bb({ACL_BOOL, {3}});
  Scalar one({ACL_INT64, 1.0});
  const aclScalar* s = one.get();
  expect_rejected("Clamp self=null", ACLNN_ERR_PARAM_NULLPTR, "self",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampGetWorkspaceSize(nullptr, s, s, f.get(), ws, ex); });
  expect_rejected("Clamp min=max=null", ACLNN_ERR_PARAM_NULLPTR, "clipValue",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampGetWorkspaceSize(f.get(), nullptr, nullptr, f.get(), ws, ex); });
  expect_rejected("ClampMin min=null", ACLNN_ERR_PARAM_NULLPTR, "clipValueMin",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampMinGetWorkspaceSize(f.get(), nullptr, f.get(), ws, ex); });
  expect_rejected("InplaceClampMax max=null", ACLNN_ERR_PARAM_NULLPTR, "clipValueMax",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceClampMaxGetWorkspaceSize(f.get(), nullptr, ws, ex); });
  expect_rejected("Clamp self=bool", ACLNN_ERR_PARAM_INVALID, "self",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampGetWorkspaceSize(b.get(), s, s, f.get(), ws, ex); });
  expect_rejected("Clamp self=float32 out=int32", ACLNN_ERR_PARAM_INVALID, "out",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampGetWorkspaceSize(f.get(), s, s, i.get(), ws, ex); });
  expect_rejected("Clamp out shape", ACLNN_ERR_PARAM_INVALID, "out",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampGetWorkspaceSize(f.get(), s, s, f33.get(), ws, ex); });
  expect_rejected("ClampTensor min=max=null", ACLNN_ERR_PARAM_NULLPTR, "clipValue",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampTensorGetWorkspaceSize(f.get(), nullptr, nullptr, f.get(), ws, ex); });
  expect_rejected("ClampMaxTensor max=null", ACLNN_ERR_PARAM_NULLPTR, "max",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampMaxTensorGetWorkspaceSize(f.get(), nullptr, f.get(), ws, ex); });
  expect_rejected("ClampTensor min=float32 self=int32 out=int32", ACLNN_ERR_PARAM_INVALID, "out",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampTensorGetWorkspaceSize(i.get(), lo3.get(), nullptr, i.get(), ws, ex); });
  expect_rejected("ClampTensor min=[4]", ACLNN_ERR_PARAM_INVALID, "clipValueMin",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampTensorGetWorkspaceSize(f.get(), lo4.get(), nullptr, f.get(), ws, ex); });
  expect_rejected("InplaceClampMinTensor min=[3,2,3] enlarges selfRef", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceClampMinTensorGetWorkspaceSize(f.get(), lo23.get(), ws, ex); });
  expect_rejected("ClampMinTensor self=bool min=bool", ACLNN_ERR_PARAM_INVALID, "self",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnClampMinTensorGetWorkspaceSize(b.get(), bb.get(), f.get(), ws, ex); });
}

// ================================================================================================
// MaskedFill, Fill, Zero, One
// ================================================================================================

const aclDataType kMaskedFillTypes[] = {ACL_BOOL, ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

void check_masked_fill(Rng& rng, const TensorDesc& sd, const TensorDesc& md, const ScalarDesc* vs,
                       const TensorDesc* vt) {
  const std::string repro = std::string(vs ? "InplaceMaskedFillScalar" : "InplaceMaskedFillTensor") +
                            " selfRef=" + sd.str() + " mask=" + md.str() + " value=" + (vs ? vs->str() : vt->str());
  Tensor self(sd), mask(md), value_t(vt ? *vt : TensorDesc(ACL_FLOAT, {}));
  Scalar value_s(vs ? *vs : ScalarDesc());
  self.fill_random(rng);
  mask.fill_random(rng);
  value_t.fill_random(rng);
  const auto s0 = self.host(), m0 = mask.host(), v0 = value_t.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    return vs ? aclnnInplaceMaskedFillScalarGetWorkspaceSize(self.get(), mask.get(), value_s.get(), ws, ex)
              : aclnnInplaceMaskedFillTensorGetWorkspaceSize(self.get(), mask.get(), value_t.get(), ws, ex);
  };
  ASSERT_EQ(run_op(p1, vs ? aclnnInplaceMaskedFillScalar : aclnnInplaceMaskedFillTensor), ACL_SUCCESS)
      << repro << ": " << aclGetRecentErrMsg();
  const Num v = cast(vs ? vs->value : value_t.at(v0, {}), sd.dtype);
  check_output(repro, self, s0, [&](const Shape& i) {
    return exact(value_at(mask, m0, i).nonzero() ? v : value_at(self, s0, i));
  });
}

TEST(MaskedFill, ScalarAndTensorEveryDtype) {
  Rng rng(11);
  const ScalarDesc vals[] = {ScalarDesc(ACL_INT64, -7.0), ScalarDesc(ACL_DOUBLE, 2.75), ScalarDesc(ACL_BOOL, 1.0),
                             ScalarDesc(ACL_FLOAT, -HUGE_VAL)};
  for (aclDataType t : kMaskedFillTypes) {
    for (const ScalarDesc& v : vals) {
      if (v.dtype == ACL_FLOAT && !is_floating(t)) continue;  // -inf has no integer value
      check_masked_fill(rng, TensorDesc(t, {3, 4, 11}), TensorDesc(ACL_BOOL, {4, 1}), &v, nullptr);
    }
    for (aclDataType vt : kMaskedFillTypes) {
      const TensorDesc vd(vt, {});
      check_masked_fill(rng, strided(t, {5, 7}), TensorDesc(ACL_BOOL, {5, 7}), nullptr, &vd);
    }
  }
  const ScalarDesc v(ACL_INT64, 3.0);
  check_masked_fill(rng, TensorDesc(ACL_FLOAT, {}), TensorDesc(ACL_BOOL, {}), &v, nullptr);
  check_masked_fill(rng, TensorDesc(ACL_FLOAT, {0, 3}), TensorDesc(ACL_BOOL, {3}), &v, nullptr);
  check_masked_fill(rng, TensorDesc(ACL_INT32, {6, 4}, {1, 6}), TensorDesc(ACL_BOOL, {6, 4}, {1, 6}), &v, nullptr);
}

TEST(MaskedFill, BadArguments) {
  Tensor s({ACL_FLOAT, {2, 3}}), m({ACL_BOOL, {2, 3}}), mu8({ACL_UINT8, {2, 3}}), m43({ACL_BOOL, {4, 3}});
  Tensor su8({ACL_UINT8, {2, 3}}), v0({ACL_FLOAT, {}}), v1({ACL_FLOAT, {1}});
  Scalar v({ACL_DOUBLE, 1.0});
  auto scal = [&](const Tensor* self, const Tensor* mask, const aclScalar* val) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnInplaceMaskedFillScalarGetWorkspaceSize(self ? self->get() : nullptr, mask ? mask->get() : nullptr,
                                                          val, ws, ex);
    };
  };
  auto tens = [&](const Tensor* self, const Tensor* mask, const Tensor* val) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnInplaceMaskedFillTensorGetWorkspaceSize(self ? self->get() : nullptr, mask ? mask->get() : nullptr,
                                                          val ? val->get() : nullptr, ws, ex);
    };
  };
  expect_rejected("InplaceMaskedFillScalar selfRef=null", ACLNN_ERR_PARAM_NULLPTR, "selfRef", scal(nullptr, &m, v.get()));
  expect_rejected("InplaceMaskedFillScalar value=null", ACLNN_ERR_PARAM_NULLPTR, "value", scal(&s, &m, nullptr));
  expect_rejected("InplaceMaskedFillTensor mask=null", ACLNN_ERR_PARAM_NULLPTR, "mask", tens(&s, nullptr, &v0));
  expect_rejected("InplaceMaskedFillTensor value=null", ACLNN_ERR_PARAM_NULLPTR, "value", tens(&s, &m, nullptr));
  expect_rejected("InplaceMaskedFillScalar mask=uint8", ACLNN_ERR_PARAM_INVALID, "mask", scal(&s, &mu8, v.get()));
  expect_rejected("InplaceMaskedFillScalar selfRef=uint8", ACLNN_ERR_PARAM_INVALID, "selfRef", scal(&su8, &m, v.get()));
  expect_rejected("InplaceMaskedFillScalar mask=[4,3]", ACLNN_ERR_PARAM_INVALID, "mask", scal(&s, &m43, v.get()));
  expect_rejected("InplaceMaskedFillTensor value=[1]", ACLNN_ERR_PARAM_INVALID, "value", tens(&s, &m, &v1));
}

void check_fill(Rng& rng, const TensorDesc& sd, const ScalarDesc* vs, const TensorDesc* vt) {
  const std::string repro = std::string(vs ? "InplaceFillScalar" : "InplaceFillTensor") + " selfRef=" + sd.str() +
                            " value=" + (vs ? vs->str() : vt->str());
  Tensor self(sd), value_t(vt ? *vt : TensorDesc(ACL_FLOAT, {}));
  Scalar value_s(vs ? *vs : ScalarDesc());
  self.fill_random(rng);
  value_t.fill_random(rng);
  const auto s0 = self.host(), v0 = value_t.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    return vs ? aclnnInplaceFillScalarGetWorkspaceSize(self.get(), value_s.get(), ws, ex)
              : aclnnInplaceFillTensorGetWorkspaceSize(self.get(), value_t.get(), ws, ex);
  };
  ASSERT_EQ(run_op(p1, vs ? aclnnInplaceFillScalar : aclnnInplaceFillTensor), ACL_SUCCESS)
      << repro << ": " << aclGetRecentErrMsg();
  const Num v = cast(vs ? vs->value : value_t.at(v0, Shape(vt->shape.size(), 0)), sd.dtype);
  check_output(repro, self, s0, [&](const Shape&) { return exact(v); });
}

TEST(Fill, ScalarAndTensorEveryDtype) {
  Rng rng(12);
  const ScalarDesc vals[] = {ScalarDesc(ACL_INT64, -7.0), ScalarDesc(ACL_DOUBLE, 2.75), ScalarDesc(ACL_BOOL, 1.0),
                             ScalarDesc(ACL_FLOAT16, 0.1), ScalarDesc(ACL_UINT8, 200.0)};
  for (aclDataType t : compute_dtypes()) {
    for (const ScalarDesc& v : vals) check_fill(rng, TensorDesc(t, {3, 50}), &v, nullptr);
    for (aclDataType vt : compute_dtypes()) {
      const TensorDesc v0(vt, {}), v1(vt, {1});
      check_fill(rng, strided(t, {4, 6}), nullptr, &v0);
      check_fill(rng, TensorDesc(t, {2, 3}), nullptr, &v1);
    }
  }
  const ScalarDesc v(ACL_DOUBLE, -0.0);
  check_fill(rng, TensorDesc(ACL_FLOAT, {}), &v, nullptr);
  check_fill(rng, TensorDesc(ACL_FLOAT, {2, 0}), &v, nullptr);
  check_fill(rng, TensorDesc(ACL_FLOAT16, {7, 3}, {1, 7}), &v, nullptr);
}

TEST(Fill, BadArguments) {
  Tensor s({ACL_FLOAT, {2, 3}}), v2({ACL_FLOAT, {2}}), v11({ACL_FLOAT, {1, 1}}), c({ACL_COMPLEX64, {2}});
  Tensor big({ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 2}});
  Scalar one({ACL_INT64, 1.0});
  expect_rejected("InplaceFillScalar selfRef=null", ACLNN_ERR_PARAM_NULLPTR, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillScalarGetWorkspaceSize(nullptr, one.get(), ws, ex); });
  expect_rejected("InplaceFillScalar value=null", ACLNN_ERR_PARAM_NULLPTR, "value",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillScalarGetWorkspaceSize(s.get(), nullptr, ws, ex); });
  expect_rejected("InplaceFillScalar selfRef=complex64", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillScalarGetWorkspaceSize(c.get(), one.get(), ws, ex); });
  expect_rejected("InplaceFillScalar rank 9", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillScalarGetWorkspaceSize(big.get(), one.get(), ws, ex); });
  expect_rejected("InplaceFillTensor value=null", ACLNN_ERR_PARAM_NULLPTR, "value",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillTensorGetWorkspaceSize(s.get(), nullptr, ws, ex); });
  expect_rejected("InplaceFillTensor value=[2]", ACLNN_ERR_PARAM_INVALID, "value",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillTensorGetWorkspaceSize(s.get(), v2.get(), ws, ex); });
  expect_rejected("InplaceFillTensor value=[1,1]", ACLNN_ERR_PARAM_INVALID, "value",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceFillTensorGetWorkspaceSize(s.get(), v11.get(), ws, ex); });
}

void check_zero_one(Rng& rng, bool one, const TensorDesc& sd) {
  const std::string repro = std::string(one ? "InplaceOne" : "InplaceZero") + " selfRef=" + sd.str();
  Tensor self(sd);
  self.fill_random(rng);
  const auto s0 = self.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    return one ? aclnnInplaceOneGetWorkspaceSize(self.get(), ws, ex) : aclnnInplaceZeroGetWorkspaceSize(self.get(), ws, ex);
  };
  ASSERT_EQ(run_op(p1, one ? aclnnInplaceOne : aclnnInplaceZero), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  const Num v = cast(Num::integer(one ? 1 : 0), sd.dtype);
  check_output(repro, self, s0, [&](const Shape&) { return exact(v); });
}

TEST(ZeroOne, EveryDtype) {
  Rng rng(13);
  for (aclDataType t : compute_dtypes())
    for (bool one : {false, true}) {
      check_zero_one(rng, one, TensorDesc(t, {5, 130}));
      check_zero_one(rng, one, strided(t, {3, 2, 5}));
      check_zero_one(rng, one, TensorDesc(t, {}));
      check_zero_one(rng, one, TensorDesc(t, {0}));
    }
  // CANN checks no rank limit for InplaceZero.
  check_zero_one(rng, false, TensorDesc(ACL_FLOAT, {1, 2, 1, 2, 1, 2, 1, 2, 3}));
}

TEST(ZeroOne, BadArguments) {
  Tensor big({ACL_FLOAT, {1, 1, 1, 1, 1, 1, 1, 1, 2}}), u16({ACL_UINT16, {2}});
  expect_rejected("InplaceZero selfRef=null", ACLNN_ERR_PARAM_NULLPTR, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceZeroGetWorkspaceSize(nullptr, ws, ex); });
  expect_rejected("InplaceOne selfRef=null", ACLNN_ERR_PARAM_NULLPTR, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceOneGetWorkspaceSize(nullptr, ws, ex); });
  expect_rejected("InplaceOne rank 9", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceOneGetWorkspaceSize(big.get(), ws, ex); });
  expect_rejected("InplaceZero selfRef=uint16", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) { return aclnnInplaceZeroGetWorkspaceSize(u16.get(), ws, ex); });
}

// ================================================================================================
// Lerp, Lerps
// ================================================================================================

// Relative precision and smallest denormal of the type a dtype computes in.
double compute_eps(aclDataType t) { return t == ACL_DOUBLE ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24); }
double compute_dmin(aclDataType t) {
  return t == ACL_DOUBLE ? std::numeric_limits<double>::denorm_min() : std::numeric_limits<float>::denorm_min();
}

Expected lerp_ref(aclDataType compute, double s, double e, double w) {
  const double r = std::fabs(w) < 0.5 ? s + w * (e - s) : e - (e - s) * (1 - w);
  const double mag = (std::fabs(s) + std::fabs(e)) * (1 + std::fabs(w) + std::fabs(1 - w));
  return Expected{Num::real(r), 4 * compute_eps(compute) * mag + 4 * compute_dmin(compute)};
}

void check_lerp(Rng& rng, bool inplace, const TensorDesc& sd, const TensorDesc& ed, const TensorDesc& wd,
                const TensorDesc& od) {
  std::string repro = std::string(inplace ? "InplaceLerp selfRef=" : "Lerp self=") + sd.str() + " end=" + ed.str() +
                      " weight=" + wd.str();
  if (!inplace) repro += " out=" + od.str();
  Tensor self(sd), end(ed), weight(wd), out(inplace ? TensorDesc(ACL_FLOAT, {}) : od);
  fill_moderate(self, rng);
  fill_moderate(end, rng);
  {  // weights mostly in [-1, 2], both sides of 0.5 and past the ends
    const size_t es = dtype_size(wd.dtype);
    std::uniform_real_distribution<double> u(-1.0, 2.0);
    for (int64_t k = 0; k < wd.storage_elems(); ++k)
      store(wd.dtype, weight.host().data() + k * es, k % 9 == 8 ? moderate_value(wd.dtype, rng) : Num::real(u(rng)));
    weight.upload();
  }
  out.fill_random(rng);
  const auto s0 = self.host(), e0 = end.host(), w0 = weight.host(), o0 = out.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    return inplace ? aclnnInplaceLerpGetWorkspaceSize(self.get(), end.get(), weight.get(), ws, ex)
                   : aclnnLerpGetWorkspaceSize(self.get(), end.get(), weight.get(), out.get(), ws, ex);
  };
  ASSERT_EQ(run_op(p1, inplace ? aclnnInplaceLerp : aclnnLerp), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  check_output(repro, inplace ? self : out, inplace ? s0 : o0, [&](const Shape& i) {
    return lerp_ref(sd.dtype, value_at(self, s0, i).f, value_at(end, e0, i).f, value_at(weight, w0, i).f);
  });
}

void check_lerps(Rng& rng, bool inplace, const TensorDesc& sd, const TensorDesc& ed, const ScalarDesc& w,
                 const TensorDesc& od) {
  std::string repro = std::string(inplace ? "InplaceLerps selfRef=" : "Lerps self=") + sd.str() + " end=" + ed.str() +
                      " weight=" + w.str();
  if (!inplace) repro += " out=" + od.str();
  Tensor self(sd), end(ed), out(inplace ? TensorDesc(ACL_FLOAT, {}) : od);
  Scalar weight(w);
  fill_moderate(self, rng);
  fill_moderate(end, rng);
  out.fill_random(rng);
  const auto s0 = self.host(), e0 = end.host(), o0 = out.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    return inplace ? aclnnInplaceLerpsGetWorkspaceSize(self.get(), end.get(), weight.get(), ws, ex)
                   : aclnnLerpsGetWorkspaceSize(self.get(), end.get(), weight.get(), out.get(), ws, ex);
  };
  ASSERT_EQ(run_op(p1, inplace ? aclnnInplaceLerps : aclnnLerps), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  const double wr = cast(w.value, sd.dtype).f;  // the weight is converted to self's dtype first
  check_output(repro, inplace ? self : out, inplace ? s0 : o0, [&](const Shape& i) {
    return lerp_ref(sd.dtype, value_at(self, s0, i).f, value_at(end, e0, i).f, wr);
  });
}

TEST(Lerp, TensorWeightEveryDtype) {
  Rng rng(14);
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    check_lerp(rng, false, TensorDesc(t, {3, 1, 40}), TensorDesc(t, {4, 40}), TensorDesc(t, {3, 4, 1}),
               TensorDesc(t, {3, 4, 40}));
    check_lerp(rng, false, TensorDesc(t, {600}), TensorDesc(t, {600}), TensorDesc(t, {600}), TensorDesc(t, {600}));
    check_lerp(rng, true, strided(t, {4, 6}), TensorDesc(t, {6}), TensorDesc(t, {4, 6}, {1, 4}), {});
    check_lerp(rng, false, TensorDesc(t, {}), TensorDesc(t, {}), TensorDesc(t, {}), TensorDesc(t, {}));
    check_lerp(rng, false, TensorDesc(t, {0, 3}), TensorDesc(t, {3}), TensorDesc(t, {1}), TensorDesc(t, {0, 3}));
  }
  // Rank 9 is accepted when every operand is contiguous (CANN only warns then).
  const Shape r9 = {1, 2, 1, 2, 1, 2, 1, 2, 3};
  check_lerp(rng, false, TensorDesc(ACL_FLOAT, r9), TensorDesc(ACL_FLOAT, r9), TensorDesc(ACL_FLOAT, {3}),
             TensorDesc(ACL_FLOAT, r9));
}

TEST(Lerp, ScalarWeightEveryDtype) {
  Rng rng(15);
  const ScalarDesc ws[] = {ScalarDesc(ACL_DOUBLE, 0.3), ScalarDesc(ACL_FLOAT, 0.7), ScalarDesc(ACL_DOUBLE, -0.6),
                           ScalarDesc(ACL_DOUBLE, 1.5), ScalarDesc(ACL_INT64, 1.0), ScalarDesc(ACL_DOUBLE, 0.1)};
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const ScalarDesc& w : ws)
      check_lerps(rng, false, TensorDesc(t, {2, 3, 20}), TensorDesc(t, {3, 1}), w, TensorDesc(t, {2, 3, 20}));
    check_lerps(rng, false, TensorDesc(t, {50}), TensorDesc(t, {50}), ws[0], TensorDesc(ACL_DOUBLE, {50}));
    check_lerps(rng, false, TensorDesc(t, {50}), TensorDesc(t, {50}), ws[1], TensorDesc(ACL_FLOAT16, {50}));
    check_lerps(rng, true, strided(t, {5, 4}), TensorDesc(t, {4}), ws[2], {});
    check_lerps(rng, true, TensorDesc(t, {}), TensorDesc(t, {}), ws[3], {});
  }
}

TEST(Lerp, BadArguments) {
  Tensor f({ACL_FLOAT, {2, 3}}), h({ACL_FLOAT16, {2, 3}}), d({ACL_DOUBLE, {2, 3}}), i({ACL_INT32, {2, 3}});
  Tensor f4({ACL_FLOAT, {4}}), f23x({ACL_FLOAT, {3, 2, 3}}), i32o({ACL_INT32, {2, 3}});
  const Shape r9 = {1, 1, 1, 1, 1, 1, 1, 2, 3};
  Tensor nc9({ACL_FLOAT, r9, {1, 1, 1, 1, 1, 1, 1, 1, 2}});
  Scalar w({ACL_DOUBLE, 0.5}), wc({ACL_COMPLEX64, 0.0});
  auto lerp = [&](const Tensor* s, const Tensor* e, const Tensor* wt, const Tensor* o) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnLerpGetWorkspaceSize(s ? s->get() : nullptr, e ? e->get() : nullptr, wt ? wt->get() : nullptr,
                                       o ? o->get() : nullptr, ws, ex);
    };
  };
  expect_rejected("Lerp weight=null", ACLNN_ERR_PARAM_NULLPTR, "weight", lerp(&f, &f, nullptr, &f));
  expect_rejected("Lerp self=float64", ACLNN_ERR_PARAM_INVALID, "self", lerp(&d, &d, &d, &d));
  expect_rejected("Lerp self=int32", ACLNN_ERR_PARAM_INVALID, "self", lerp(&i, &i, &i, &i));
  expect_rejected("Lerp end=float16 self=float32", ACLNN_ERR_PARAM_INVALID, "end", lerp(&f, &h, &f, &f));
  expect_rejected("Lerp out=float16 self=float32", ACLNN_ERR_PARAM_INVALID, "out", lerp(&f, &f, &f, &h));
  expect_rejected("Lerp weight=[4]", ACLNN_ERR_PARAM_INVALID, "weight", lerp(&f, &f, &f4, &f));
  expect_rejected("Lerp rank 9 non-contiguous", ACLNN_ERR_PARAM_INVALID, "self", lerp(&nc9, &nc9, &nc9, &nc9));
  expect_rejected("InplaceLerp end=[3,2,3] enlarges selfRef", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnInplaceLerpGetWorkspaceSize(f.get(), f23x.get(), f.get(), ws, ex);
                  });
  expect_rejected("Lerps weight=null", ACLNN_ERR_PARAM_NULLPTR, "weight", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnLerpsGetWorkspaceSize(f.get(), f.get(), nullptr, f.get(), ws, ex);
  });
  expect_rejected("Lerps weight=complex64", ACLNN_ERR_PARAM_INVALID, "weight", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnLerpsGetWorkspaceSize(f.get(), f.get(), wc.get(), f.get(), ws, ex);
  });
  expect_rejected("Lerps out=int32", ACLNN_ERR_PARAM_INVALID, "out", [&](uint64_t* ws, aclOpExecutor** ex) {
    return aclnnLerpsGetWorkspaceSize(f.get(), f.get(), w.get(), i32o.get(), ws, ex);
  });
}

// ================================================================================================
// Addcmul, Addcdiv
// ================================================================================================

uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }

// Integer quotient rounded toward zero, x / 0 = 0, wrapping (INT64_MIN / -1).
int64_t int_div(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return static_cast<int64_t>(0 - u(a));
  return a / b;
}

void check_addc(Rng& rng, bool div, bool inplace, const TensorDesc& sd, const TensorDesc& ad, const TensorDesc& bd,
                const ScalarDesc& v, const TensorDesc& od) {
  const char* name = div ? (inplace ? "InplaceAddcdiv" : "Addcdiv") : (inplace ? "InplaceAddcmul" : "Addcmul");
  std::string repro = std::string(name) + (inplace ? " selfRef=" : " self=") + sd.str() + " tensor1=" + ad.str() +
                      " tensor2=" + bd.str() + " value=" + v.str();
  if (!inplace) repro += " out=" + od.str();
  Tensor self(sd), t1(ad), t2(bd), out(inplace ? TensorDesc(ACL_FLOAT, {}) : od);
  Scalar value(v);
  fill_moderate(self, rng);
  fill_moderate(t1, rng);
  fill_moderate(t2, rng);
  out.fill_random(rng);
  const auto s0 = self.host(), a0 = t1.host(), b0 = t2.host(), o0 = out.host();
  Phase1 p1 = [&](uint64_t* ws, aclOpExecutor** ex) -> aclnnStatus {
    if (div)
      return inplace ? aclnnInplaceAddcdivGetWorkspaceSize(self.get(), t1.get(), t2.get(), value.get(), ws, ex)
                     : aclnnAddcdivGetWorkspaceSize(self.get(), t1.get(), t2.get(), value.get(), out.get(), ws, ex);
    return inplace ? aclnnInplaceAddcmulGetWorkspaceSize(self.get(), t1.get(), t2.get(), value.get(), ws, ex)
                   : aclnnAddcmulGetWorkspaceSize(self.get(), t1.get(), t2.get(), value.get(), out.get(), ws, ex);
  };
  const Phase2 p2 = div ? (inplace ? aclnnInplaceAddcdiv : aclnnAddcdiv) : (inplace ? aclnnInplaceAddcmul : aclnnAddcmul);
  ASSERT_EQ(run_op(p1, p2), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
  const aclDataType p = promote_types(sd.dtype, promote_types(ad.dtype, bd.dtype));
  const Num vc = cast(v.value, p);  // value converted to the promoted dtype
  Tensor& result = inplace ? self : out;
  const aclDataType ot = result.desc().dtype;
  check_output(repro, result, inplace ? s0 : o0, [&](const Shape& i) {
    const Num s = cast(value_at(self, s0, i), p), a = cast(value_at(t1, a0, i), p), b = cast(value_at(t2, b0, i), p);
    if (!is_floating(p)) {
      const uint64_t term = div ? u(vc.i) * u(int_div(a.i, b.i)) : u(vc.i) * (u(a.i) * u(b.i));
      return exact(cast(Num::integer(wrap_int(u(s.i) + term, p)), ot));
    }
    const double term = div ? vc.f * (a.f / b.f) : vc.f * (a.f * b.f);
    const double tol = 4 * compute_eps(p) * (std::fabs(s.f) + std::fabs(term)) + 4 * compute_dmin(p);
    Expected e{Num::real(s.f + term), tol};
    if (!is_floating(ot)) e = exact(cast(e.value, ot));  // not reached: float never casts to an integer out
    return e;
  });
}

const aclDataType kAddcmulTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8};
const aclDataType kAddcdivTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64};

TEST(Addcmul, EveryDtype) {
  Rng rng(16);
  for (aclDataType t : kAddcmulTypes) {
    const ScalarDesc v = is_floating(t) ? ScalarDesc(ACL_DOUBLE, -1.25) : ScalarDesc(ACL_INT64, 3.0);
    check_addc(rng, false, false, TensorDesc(t, {3, 1, 30}), TensorDesc(t, {4, 30}), TensorDesc(t, {3, 4, 1}), v,
               TensorDesc(t, {3, 4, 30}));
    check_addc(rng, false, true, strided(t, {4, 5}), TensorDesc(t, {5}), TensorDesc(t, {4, 5}, {1, 4}), v, {});
    check_addc(rng, false, false, TensorDesc(t, {}), TensorDesc(t, {}), TensorDesc(t, {}), ScalarDesc(ACL_INT64, 1.0),
               TensorDesc(t, {}));
  }
  // Mixed dtypes promote; the result converts to a wider out.
  check_addc(rng, false, false, TensorDesc(ACL_INT32, {40}), TensorDesc(ACL_FLOAT16, {40}), TensorDesc(ACL_INT8, {40}),
             ScalarDesc(ACL_DOUBLE, 0.5), TensorDesc(ACL_FLOAT, {40}));
  check_addc(rng, false, false, TensorDesc(ACL_UINT8, {40}), TensorDesc(ACL_INT32, {40}), TensorDesc(ACL_UINT8, {40}),
             ScalarDesc(ACL_BOOL, 1.0), TensorDesc(ACL_INT64, {40}));
  check_addc(rng, false, false, TensorDesc(ACL_FLOAT16, {40}), TensorDesc(ACL_BF16, {40}), TensorDesc(ACL_FLOAT16, {40}),
             ScalarDesc(ACL_DOUBLE, 3.0), TensorDesc(ACL_DOUBLE, {40}));
  check_addc(rng, false, false, TensorDesc(ACL_FLOAT, {0, 4}), TensorDesc(ACL_FLOAT, {4}), TensorDesc(ACL_FLOAT, {1}),
             ScalarDesc(ACL_DOUBLE, 3.0), TensorDesc(ACL_FLOAT, {0, 4}));
}

TEST(Addcdiv, EveryDtype) {
  Rng rng(17);
  for (aclDataType t : kAddcdivTypes) {
    const ScalarDesc v = is_floating(t) ? ScalarDesc(ACL_DOUBLE, 0.75) : ScalarDesc(ACL_INT64, -2.0);
    check_addc(rng, true, false, TensorDesc(t, {3, 1, 30}), TensorDesc(t, {4, 30}), TensorDesc(t, {3, 4, 1}), v,
               TensorDesc(t, {3, 4, 30}));
    check_addc(rng, true, true, strided(t, {4, 5}), TensorDesc(t, {5}), TensorDesc(t, {4, 1}), v, {});
    check_addc(rng, true, false, TensorDesc(t, {700}), TensorDesc(t, {700}), TensorDesc(t, {700}), v,
               TensorDesc(t, {700}, {}, 5, 710));
  }
  check_addc(rng, true, false, TensorDesc(ACL_INT64, {40}), TensorDesc(ACL_FLOAT16, {40}), TensorDesc(ACL_INT64, {40}),
             ScalarDesc(ACL_DOUBLE, 0.5), TensorDesc(ACL_FLOAT, {40}));
  check_addc(rng, true, false, TensorDesc(ACL_BF16, {40}), TensorDesc(ACL_FLOAT16, {40}), TensorDesc(ACL_BF16, {40}),
             ScalarDesc(ACL_INT64, 3.0), TensorDesc(ACL_FLOAT, {40}));
}

TEST(Addcdiv, Int64EdgeCases) {
  // x / 0 = 0, INT64_MIN / -1 wraps, truncation toward zero for negative quotients.
  const TensorDesc d(ACL_INT64, {5});
  Tensor self(d), t1(d), t2(d), out(d);
  const int64_t mn = std::numeric_limits<int64_t>::min();
  const int64_t a[] = {7, mn, -7, 5, 9}, b[] = {0, -1, 2, -3, 4};
  for (int64_t k = 0; k < 5; ++k) {
    self.set({k}, Num::integer(100));
    t1.set({k}, Num::integer(a[k]));
    t2.set({k}, Num::integer(b[k]));
  }
  self.upload(), t1.upload(), t2.upload();
  out.fill(Num::integer(0));
  Scalar v({ACL_INT64, 1.0});
  ASSERT_EQ(run_op([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddcdivGetWorkspaceSize(self.get(), t1.get(), t2.get(), v.get(), out.get(), ws, ex);
            }, aclnnAddcdiv), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  const int64_t expected[] = {100, static_cast<int64_t>(u(mn) + 100), 97, 99, 102};
  for (int64_t k = 0; k < 5; ++k) EXPECT_EQ(out.at({k}).i, expected[k]) << "Addcdiv int64 element " << k;
}

TEST(Addc, BadArguments) {
  Tensor f({ACL_FLOAT, {2, 3}}), i8({ACL_INT8, {2, 3}}), u8({ACL_UINT8, {2, 3}}), i16({ACL_INT16, {2, 3}});
  Tensor i32({ACL_INT32, {2, 3}}), b({ACL_BOOL, {2, 3}}), f4({ACL_FLOAT, {4}}), f323({ACL_FLOAT, {3, 2, 3}});
  const Shape r9 = {1, 1, 1, 1, 1, 1, 1, 2, 3};
  Tensor f9({ACL_FLOAT, r9});
  Scalar one({ACL_INT64, 1.0}), half({ACL_DOUBLE, 0.5});
  auto mul = [&](const Tensor* s, const Tensor* a, const Tensor* c, const aclScalar* v, const Tensor* o) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnAddcmulGetWorkspaceSize(s ? s->get() : nullptr, a ? a->get() : nullptr, c ? c->get() : nullptr, v,
                                          o ? o->get() : nullptr, ws, ex);
    };
  };
  auto div = [&](const Tensor* s, const Tensor* a, const Tensor* c, const aclScalar* v, const Tensor* o) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnAddcdivGetWorkspaceSize(s ? s->get() : nullptr, a ? a->get() : nullptr, c ? c->get() : nullptr, v,
                                          o ? o->get() : nullptr, ws, ex);
    };
  };
  expect_rejected("Addcmul tensor2=null", ACLNN_ERR_PARAM_NULLPTR, "tensor2", mul(&f, &f, nullptr, one.get(), &f));
  expect_rejected("Addcmul value=null", ACLNN_ERR_PARAM_NULLPTR, "value", mul(&f, &f, &f, nullptr, &f));
  expect_rejected("Addcdiv out=null", ACLNN_ERR_PARAM_NULLPTR, "out", div(&f, &f, &f, one.get(), nullptr));
  expect_rejected("Addcmul self=int16", ACLNN_ERR_PARAM_INVALID, "self", mul(&i16, &i16, &i16, one.get(), &i16));
  expect_rejected("Addcmul tensor1=bool", ACLNN_ERR_PARAM_INVALID, "tensor1", mul(&f, &b, &f, one.get(), &f));
  expect_rejected("Addcmul int8*uint8 promotes to int16", ACLNN_ERR_PARAM_INVALID, "int16",
                  mul(&i8, &u8, &i8, one.get(), &i32));
  expect_rejected("Addcmul float32 result into int32 out", ACLNN_ERR_PARAM_INVALID, "out",
                  mul(&f, &f, &f, one.get(), &i32));
  expect_rejected("Addcmul float value with int32 tensors", ACLNN_ERR_PARAM_INVALID, "value",
                  mul(&i32, &i32, &i32, half.get(), &i32));
  expect_rejected("Addcmul tensor1=[4]", ACLNN_ERR_PARAM_INVALID, "tensor1", mul(&f, &f4, &f, one.get(), &f));
  expect_rejected("Addcmul out=[3,2,3]", ACLNN_ERR_PARAM_INVALID, "out", mul(&f, &f, &f, one.get(), &f323));
  expect_rejected("Addcmul rank 9", ACLNN_ERR_PARAM_INVALID, "self", mul(&f9, &f9, &f9, one.get(), &f9));
  expect_rejected("Addcdiv self=int32", ACLNN_ERR_PARAM_INVALID, "self", div(&i32, &i32, &i32, one.get(), &i32));
  expect_rejected("InplaceAddcdiv tensor1=[3,2,3] enlarges selfRef", ACLNN_ERR_PARAM_INVALID, "selfRef",
                  [&](uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnInplaceAddcdivGetWorkspaceSize(f.get(), f323.get(), f.get(), one.get(), ws, ex);
                  });
}

}  // namespace
