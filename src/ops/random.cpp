// Random ops: Uniform, Random, Normal (in place and out-of-place), Bernoulli, the dropout family
// (Dropout, GenMask, DoMask, Backward), Randperm, Multinomial, SimThreadExponential.
//
// Every op draws from Philox 4x32-10 (Salmon et al. 2011, the counter-based generator of PyTorch's
// CUDA backend and of CANN): key = seed, and element i of an op reads the four 32-bit words at
// positions offset + 4i .. offset + 4i + 3 of the stream whose block k is philox(counter k, key).
// So a result depends only on (seed, offset), every element is computed independently (in
// parallel), and a caller that advances offset by 4 * elements gets a fresh, non-overlapping draw.
// Seeds and offsets given as tensors (the *Tensor forms) are read when the kernel runs.
//   uniform [0, 1): 24 bits for float/16-bit outputs, 53 bits for double
//   normal: Box-Muller on two 53-bit uniforms        bernoulli / dropout: u < p (53 bits)
//   integers in [from, to): from + (64 random bits mod (to - from))
//   multinomial without replacement: the k largest keys log(u_j) / w_j (Efraimidis-Spirakis)
//   randperm: indices sorted by a 64-bit random key each (ties by index)
// Dropout masks hold one bit per element, LSB first, padded with zero bits to a multiple of 128.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_randperm.h"
#include "aclnnop/aclnn_sim_thread_exponential.h"
#include "aclnnop/aclnn_uniform.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/elementwise.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/movement.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// ---- the generator ---------------------------------------------------------------------------

std::array<uint32_t, 4> philox(uint64_t counter, uint64_t key) {
  uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = uint64_t{0xD2511F53u} * c0, p1 = uint64_t{0xCD9E8D57u} * c2;
    const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0, n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c1 = static_cast<uint32_t>(p1);
    c3 = static_cast<uint32_t>(p0);
    c0 = n0;
    c2 = n2;
  }
  return {c0, c1, c2, c3};
}

struct Stream {
  uint64_t seed, offset;
  // The four words of element i.
  std::array<uint32_t, 4> words(int64_t i) const {
    const uint64_t pos = offset + 4 * static_cast<uint64_t>(i);
    const unsigned lane = static_cast<unsigned>(pos % 4);
    const std::array<uint32_t, 4> a = philox(pos / 4, seed);
    if (lane == 0) return a;
    const std::array<uint32_t, 4> b = philox(pos / 4 + 1, seed);
    std::array<uint32_t, 4> w;
    for (unsigned k = 0; k < 4; ++k) w[k] = lane + k < 4 ? a[lane + k] : b[lane + k - 4];
    return w;
  }
};

inline double u24(uint32_t w) { return static_cast<double>(w >> 8) * 0x1p-24; }
inline double u53(uint32_t hi, uint32_t lo) {
  return static_cast<double>(((static_cast<uint64_t>(hi) << 32) | lo) >> 11) * 0x1p-53;
}
inline uint64_t bits64(uint32_t hi, uint32_t lo) { return (static_cast<uint64_t>(hi) << 32) | lo; }
inline double standard_normal(const std::array<uint32_t, 4>& w) {
  const double u1 = 1.0 - u53(w[0], w[1]);  // (0, 1]
  const double u2 = u53(w[2], w[3]);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// ---- seeds and outputs ---------------------------------------------------------------------------

// Seed and offset: host integers, or int64 [1] tensors (read at run time) plus a host offset.
struct SeedArg {
  uint64_t seed = 0, offset = 0;
  const aclTensor* seed_t = nullptr;
  const aclTensor* offset_t = nullptr;
};

SeedArg host_seed(int64_t seed, int64_t offset) {
  return SeedArg{static_cast<uint64_t>(seed), static_cast<uint64_t>(offset), nullptr, nullptr};
}

SeedArg tensor_seed(OpBuilder& b, const aclTensor* seed_arg, const aclTensor* offset_arg, int64_t offset) {
  SeedArg s;
  s.seed_t = &b.input(seed_arg, "seedTensor");
  s.offset_t = &b.input(offset_arg, "offsetTensor");
  s.offset = static_cast<uint64_t>(offset);
  for (const auto& [t, name] : {std::pair{s.seed_t, "seedTensor"}, std::pair{s.offset_t, "offsetTensor"}}) {
    if (t->dtype != DType::kInt64) invalid("{} has dtype {}, expected int64", name, dtype_name(t->dtype));
    if (t->numel() != 1) invalid("{} has shape {}, expected [1]", name, dims_str(t->view));
  }
  return s;
}

struct SeedPlan {
  int seed_k = -1, offset_k = -1;
  uint64_t seed = 0, offset = 0;
  Stream resolve(const DenseArgs& a) const {
    Stream s{seed, offset};
    if (seed_k >= 0) s.seed = static_cast<uint64_t>(a.in<int64_t>(seed_k)[0]);
    if (offset_k >= 0) s.offset += static_cast<uint64_t>(a.in<int64_t>(offset_k)[0]);
    return s;
  }
};

SeedPlan plan_seed(DensePlan& p, const SeedArg& s) {
  SeedPlan r;
  r.seed = s.seed;
  r.offset = s.offset;
  if (s.seed_t) r.seed_k = p.input(*s.seed_t, DType::kInt64);
  if (s.offset_t) r.offset_k = p.input(*s.offset_t, DType::kInt64);
  return r;
}

// out[i] = f(i) converted to t (complex: the real part, imaginary 0), over n dense elements in parallel.
template <typename F>
void write_values(DType t, void* out, int64_t n, F f) {
  auto loop = [&](auto store) {
    parallel_for(n, 4096, [&](int64_t from, int64_t to, int) {
      for (int64_t i = from; i < to; ++i) store(i, f(i));
    });
  };
  if (t == DType::kComplex64 || t == DType::kComplex128) {
    auto complex = [&](auto zero) {
      using R = decltype(zero);
      R* o = static_cast<R*>(out);
      loop([&](int64_t i, auto v) {
        o[2 * i] = static_cast<R>(v);
        o[2 * i + 1] = 0;
      });
    };
    if (t == DType::kComplex64) complex(0.0f);
    else complex(0.0);
    return;
  }
  visit_dtype(t, [&](auto tag) {
    using S = typename decltype(tag)::type;
    S* o = static_cast<S*>(out);
    loop([&](int64_t i, auto v) { o[i] = convert_value<S>(v); });
  });
}

// Plans `out (dense, dtype t) = f(i, stream words of i)` over out's elements.
template <typename F>
void plan_fill(OpBuilder& b, const aclTensor& out, const SeedArg& seed, const std::string& name, F f) {
  if (out.numel() == 0) return;
  DensePlan p(b);
  const SeedPlan sp = plan_seed(p, seed);
  const int dst = p.output(out, out.dtype);
  const DType t = out.dtype;
  const int64_t n = out.numel();
  p.finish(name, [=](const DenseArgs& a) {
    const Stream s = sp.resolve(a);
    write_values(t, a.ptr(dst), n, [&](int64_t i) { return f(i, s.words(i)); });
  });
}

// The range of values of dtype t (bool: [0, 1]).
void dtype_limits(DType t, double* lo, double* hi) {
  switch (t) {
    case DType::kBool: *lo = 0, *hi = 1; return;
    case DType::kUInt8: *lo = 0, *hi = 255; return;
    case DType::kInt8: *lo = -128, *hi = 127; return;
    case DType::kInt16: *lo = -32768, *hi = 32767; return;
    case DType::kInt32: *lo = -2147483648.0, *hi = 2147483647.0; return;
    case DType::kInt64: *lo = -9223372036854775808.0, *hi = 9223372036854775807.0; return;
    case DType::kFloat16: *lo = -65504, *hi = 65504; return;
    case DType::kBFloat16: case DType::kFloat: case DType::kComplex64:
      *lo = -std::numeric_limits<float>::max(), *hi = std::numeric_limits<float>::max(); return;
    default: *lo = -std::numeric_limits<double>::max(), *hi = std::numeric_limits<double>::max(); return;
  }
}

bool is_16bit_float(DType t) { return t == DType::kFloat16 || t == DType::kBFloat16; }

// ---- Uniform / Random / Normal (in place) -------------------------------------------------------------

constexpr DTypeMask kUniformTypes = dtype_mask({DType::kFloat, DType::kInt32, DType::kInt64, DType::kBFloat16,
                                                DType::kFloat16, DType::kInt16, DType::kInt8, DType::kUInt8,
                                                DType::kDouble});

void plan_uniform(OpBuilder& b, const aclTensor& self, double from, double to, const SeedArg& seed) {
  check_dtype_in(b.op(), "selfRef", self.dtype, kUniformTypes);
  check_rank_between(self, "selfRef", 0, 8);
  if (!std::isfinite(from) || !std::isfinite(to)) invalid("from {} and to {} must be finite", from, to);
  if (from > to) invalid("from is {} and to is {}, expected from <= to", from, to);
  double lo, hi;
  dtype_limits(self.dtype, &lo, &hi);
  if (from < lo || to > hi)
    invalid("from {} and to {} must lie in the range [{}, {}] of selfRef's dtype {}", from, to, lo, hi,
            dtype_name(self.dtype));
  const DType t = self.dtype;
  plan_fill(b, self, seed, std::string("uniform.") + dtype_name(t), [=](int64_t, const std::array<uint32_t, 4>& w) {
    if (t == DType::kDouble) return from + (to - from) * u53(w[0], w[1]);
    const double v = from + (to - from) * u24(w[0]);
    // A value rounding up to `to` in the output's precision is taken as `from` (PyTorch's rule).
    if (t == DType::kFloat && static_cast<float>(v) >= static_cast<float>(to) && from < to) return from;
    if (is_16bit_float(t) && from < to) {
      const float r = t == DType::kFloat16 ? half_to_float(float_to_half(static_cast<float>(v)))
                                           : bf16_to_float(float_to_bf16(static_cast<float>(v)));
      if (r >= static_cast<float>(to)) return from;
    }
    return v;
  });
}

constexpr DTypeMask kRandomTypes = kUniformTypes | dtype_mask({DType::kBool, DType::kComplex64, DType::kComplex128});

// from + (64 random bits mod range), range = to - from > 0 (as an unsigned 64-bit count).
void plan_random(OpBuilder& b, const aclTensor& self, const int64_t* from_to, const SeedArg& seed) {
  check_dtype_in(b.op(), "selfRef", self.dtype,
                 from_to ? kRandomTypes : kRandomTypes & ~dtype_mask({DType::kDouble, DType::kComplex64, DType::kComplex128}));
  check_rank_between(self, "selfRef", 0, 8);
  const DType t = self.dtype;
  int64_t from = 0;
  uint64_t range;
  if (from_to) {
    from = from_to[0];
    const int64_t to = from_to[1];
    if (from >= to) invalid("from is {} and to is {}, expected from < to", from, to);
    double lo, hi;
    dtype_limits(t, &lo, &hi);
    if (static_cast<double>(from) < lo || static_cast<double>(to - 1) > hi)
      invalid("from {} and to - 1 = {} must lie in the range [{}, {}] of selfRef's dtype {}", from, to - 1, lo, hi,
              dtype_name(t));
    range = static_cast<uint64_t>(to) - static_cast<uint64_t>(from);
  } else {  // [0, the largest integer the dtype holds exactly, and all below]
    switch (t) {
      case DType::kBool: range = 2; break;
      case DType::kUInt8: range = 256; break;
      case DType::kInt8: range = 128; break;
      case DType::kInt16: range = 32768; break;
      case DType::kInt32: range = uint64_t{1} << 31; break;
      case DType::kInt64: range = uint64_t{1} << 63; break;
      case DType::kFloat16: range = (1 << 11) + 1; break;
      case DType::kBFloat16: range = (1 << 8) + 1; break;
      default: range = (uint64_t{1} << 24) + 1; break;  // float32
    }
  }
  plan_fill(b, self, seed, std::string("random.") + dtype_name(t), [=](int64_t, const std::array<uint32_t, 4>& w) {
    const uint64_t r = range > 0xffffffffull ? bits64(w[0], w[1]) % range : w[0] % range;
    return static_cast<int64_t>(static_cast<uint64_t>(from) + r);
  });
}

constexpr DTypeMask kNormalInplaceTypes = kUniformTypes | dtype_mask({DType::kBool});

void plan_inplace_normal(OpBuilder& b, const aclTensor& self, float mean, float std_dev, const SeedArg& seed) {
  check_dtype_in(b.op(), "selfRef", self.dtype, kNormalInplaceTypes);
  check_rank_between(self, "selfRef", 0, 8);
  if (!(std_dev >= 0)) invalid("std is {}, expected std >= 0", std_dev);
  const double m = mean, sd = std_dev;
  plan_fill(b, self, seed, std::string("normal.") + dtype_name(self.dtype),
            [=](int64_t, const std::array<uint32_t, 4>& w) { return m + sd * standard_normal(w); });
}

// ---- Normal (out-of-place, mean / std tensors broadcast) -------------------------------------------------

constexpr DTypeMask kNormalTypes = kFloatingTypes;

// mean and std: a tensor (broadcast to out) or a float each.
void plan_normal_out(OpBuilder& b, const aclTensor* mean_t, float mean_f, const aclTensor* std_t, float std_f,
                     int64_t seed, int64_t offset, const aclTensor* out_arg) {
  const aclTensor* mean = mean_t ? &b.input(mean_t, "mean") : nullptr;
  const aclTensor* sd = std_t ? &b.input(std_t, "std") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "out", out.dtype, kNormalTypes);
  Dims shape;
  for (const auto& [t, name] : {std::pair{mean, "mean"}, std::pair{sd, "std"}}) {
    if (!t) continue;
    check_dtype_in(b.op(), name, t->dtype, kNormalTypes);
    check_same_dtype(out, "out", *t, name);
    check_rank_between(*t, name, 0, 8);
  }
  if (mean && sd) {
    if (mean->dtype != sd->dtype)
      invalid("std has dtype {}, expected the dtype of mean ({})", dtype_name(sd->dtype), dtype_name(mean->dtype));
    shape = broadcast_shapes(mean->view, "mean", sd->view, "std");
  } else if (mean || sd) {
    shape = (mean ? mean : sd)->view;
  } else {
    shape = out.view;
  }
  if (!sd && !(std_f >= 0)) invalid("std is {}, expected std >= 0", std_f);
  check_rank_between(out, "out", 0, 8);
  check_shape_equals(out, "out", shape, mean && sd ? "the broadcast shape of mean and std" : "the shape of the tensor argument");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const SeedPlan sp = plan_seed(p, host_seed(seed, offset));
  const int mk = mean ? p.strided(*mean) : -1, sk = sd ? p.strided(*sd) : -1;
  const int dst = p.output(out, out.dtype);
  const int64_t n = out.numel();
  // mean / std expanded to out's shape in double, in scratch.
  auto expand_strides = [&](const aclTensor& t) {
    Dims st(shape.size(), 0);
    const size_t lead = shape.size() - t.view.size();
    for (size_t k = 0; k < t.view.size(); ++k)
      if (t.view[k] != 1) st[lead + k] = t.strides[k];
    return st;
  };
  const size_t mbuf = mean ? p.scratch(static_cast<size_t>(n) * sizeof(double)) : 0;
  const size_t sbuf = sd ? p.scratch(static_cast<size_t>(n) * sizeof(double)) : 0;
  const Dims mst = mean ? expand_strides(*mean) : Dims{}, sst = sd ? expand_strides(*sd) : Dims{};
  const DType mt = mean ? mean->dtype : DType::kFloat, st = sd ? sd->dtype : DType::kFloat;
  const double mf = mean_f, sf = std_f;
  const DType t = out.dtype;
  p.finish(std::string("normal.") + dtype_name(t), [=](const DenseArgs& a) {
    const Dims dense = contiguous_strides(shape);
    double* mv = mk >= 0 ? a.scratch<double>(mbuf) : nullptr;
    double* sv = sk >= 0 ? a.scratch<double>(sbuf) : nullptr;
    if (mv) copy_strided(shape, DType::kDouble, mv, dense, mt, a.ptr(mk), mst);
    if (sv) {
      copy_strided(shape, DType::kDouble, sv, dense, st, a.ptr(sk), sst);
      for (int64_t i = 0; i < n; ++i)
        if (!(sv[i] >= 0)) invalid("std holds {} (element {} of the broadcast), expected std >= 0", sv[i], i);
    }
    const Stream s = sp.resolve(a);
    write_values(t, a.ptr(dst), n, [&](int64_t i) {
      return (mv ? mv[i] : mf) + (sv ? sv[i] : sf) * standard_normal(s.words(i));
    });
  });
}

// ---- Bernoulli -----------------------------------------------------------------------------------------

constexpr DTypeMask kBernoulliTypes = kAllTypes;
constexpr DTypeMask kProbTypes = kFloatingTypes;

void check_offset4(int64_t offset) {
  if (offset % 4 != 0) invalid("offset is {}, expected a multiple of 4", offset);
}

// out (or selfRef) = u < prob; prob a scalar or a tensor (broadcast to out, or read flat when it has
// at least as many elements).
void plan_bernoulli(OpBuilder& b, const aclTensor* self_arg, const aclScalar* prob_s, const aclTensor* prob_t,
                    int64_t seed, int64_t offset, const aclTensor* out_arg, bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclScalar* ps = prob_t ? nullptr : &b.scalar(prob_s, "prob");
  const aclTensor* pt = prob_t ? &b.input(prob_t, "prob") : nullptr;
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  check_dtype_in(b.op(), self_name, self.dtype, kBernoulliTypes);
  if (!inplace) {
    check_same_dtype(out, "out", self, self_name);
    check_shape_equals(out, "out", self.view, "the shape of self");
  }
  check_rank_between(self, self_name, 0, 8);
  check_offset4(offset);
  double p = 0;
  if (ps) {
    check_dtype_in(b.op(), "prob", ps->dtype, kProbTypes);
    p = ps->to_double();
    if (!(p >= 0 && p <= 1)) invalid("prob is {}, expected 0 <= prob <= 1", ps->describe());
    plan_fill(b, out, host_seed(seed, offset), std::string("bernoulli.") + dtype_name(out.dtype),
              [=](int64_t, const std::array<uint32_t, 4>& w) { return u53(w[0], w[1]) < p ? int64_t{1} : int64_t{0}; });
    return;
  }
  check_dtype_in(b.op(), "prob", pt->dtype, kProbTypes);
  check_rank_between(*pt, "prob", 0, 8);
  Dims pst;  // prob's strides broadcast to out's shape; empty: read flat
  bool broadcastable = pt->dim() <= out.dim();
  for (int64_t k = 0; k < pt->dim() && broadcastable; ++k) {
    const int64_t pd = pt->view[static_cast<size_t>(k)], od = out.view[static_cast<size_t>(k + out.dim() - pt->dim())];
    broadcastable = pd == od || pd == 1;
  }
  if (broadcastable) {
    pst.assign(out.view.size(), 0);
    for (int64_t k = 0; k < pt->dim(); ++k)
      if (pt->view[static_cast<size_t>(k)] != 1)
        pst[static_cast<size_t>(k + out.dim() - pt->dim())] = pt->strides[static_cast<size_t>(k)];
  } else if (pt->numel() < out.numel()) {
    invalid("prob has shape {}, expected a shape that broadcasts to {} or at least {} elements", dims_str(pt->view),
            dims_str(out.view), out.numel());
  }
  if (out.numel() == 0) return;
  DensePlan p2(b);
  p2.separate_outputs();
  const SeedPlan sp = plan_seed(p2, host_seed(seed, offset));
  const int pk = broadcastable ? p2.strided(*pt) : p2.input(*pt, DType::kDouble);
  const int dst = p2.output(out, out.dtype);
  const int64_t n = out.numel();
  const size_t buf = broadcastable ? p2.scratch(static_cast<size_t>(n) * sizeof(double)) : 0;
  const Dims shape = out.view;
  const DType pdt = pt->dtype, t = out.dtype;
  p2.finish(std::string("bernoulli_tensor.") + dtype_name(t), [=](const DenseArgs& a) {
    const double* pv = a.in<double>(pk);
    if (broadcastable) {
      double* e = a.scratch<double>(buf);
      copy_strided(shape, DType::kDouble, e, contiguous_strides(shape), pdt, a.ptr(pk), pst);
      pv = e;
    }
    for (int64_t i = 0; i < n; ++i)
      if (!(pv[i] >= 0 && pv[i] <= 1)) invalid("prob holds {} (element {}), expected 0 <= prob <= 1", pv[i], i);
    const Stream s = sp.resolve(a);
    write_values(t, a.ptr(dst), n, [&](int64_t i) {
      const auto w = s.words(i);
      return u53(w[0], w[1]) < pv[i] ? int64_t{1} : int64_t{0};
    });
  });
}

// ---- dropout -------------------------------------------------------------------------------------------

constexpr DTypeMask kDropoutTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

int64_t mask_bytes(int64_t n) { return (n + 127) / 128 * 128 / 8; }

void check_mask(const aclTensor& mask, const char* name, int64_t n) {
  if (mask.dtype != DType::kUInt8) invalid("{} has dtype {}, expected uint8", name, dtype_name(mask.dtype));
  if (mask.numel() != mask_bytes(n))
    invalid("{} has {} elements ({}), expected {} (one bit per element of {} elements, padded to 128 bits)", name,
            mask.numel(), dims_str(mask.view), mask_bytes(n), n);
}

void check_prob(double p, const char* name) {
  if (!(p >= 0 && p <= 1)) invalid("{} is {}, expected a probability in [0, 1]", name, p);
}

// Bits of a mask: bit i set (kept) when u_i >= prob; the padding bits are 0.
void write_mask(uint8_t* m, int64_t n, const Stream& s, double prob) {
  const int64_t bytes = mask_bytes(n);
  parallel_for(bytes, 1024, [&](int64_t from, int64_t to, int) {
    for (int64_t k = from; k < to; ++k) {
      uint8_t v = 0;
      for (int64_t j = 0; j < 8; ++j) {
        const int64_t i = 8 * k + j;
        if (i >= n) break;
        const auto w = s.words(i);
        if (u53(w[0], w[1]) >= prob) v |= static_cast<uint8_t>(1u << j);
      }
      m[k] = v;
    }
  });
}

// out[i] = bit i of mask ? x[i] * scale : 0, in float.
void apply_mask(DType t, void* out, const float* x, const uint8_t* m, int64_t n, float scale) {
  write_values(t, out, n, [&](int64_t i) { return (m[i / 8] >> (i % 8)) & 1 ? x[i] * scale : 0.0f; });
}

void plan_gen_mask(OpBuilder& b, const aclIntArray* shape_arg, double prob, const SeedArg& seed, DType prob_t,
                   const aclTensor* out_arg) {
  const aclIntArray& shape = b.int_array(shape_arg, "shape");
  const aclTensor& out = b.output(out_arg, "out");
  check_prob(prob, "prob");
  if (shape.values.empty() || shape.values.size() > 8)
    invalid("shape {} has {} entries, expected 1 to 8", list_str(shape.values), shape.values.size());
  int64_t n = 1;
  for (size_t i = 0; i < shape.values.size(); ++i) {
    if (shape.values[i] < 0) invalid("shape[{}] is {}, expected a size >= 0", i, shape.values[i]);
    n *= shape.values[i];
  }
  check_mask(out, "out", n);
  check_rank_between(out, "out", 1, 1);
  // The probability as the kernel sees it in probDataType.
  if (prob_t == DType::kFloat16) prob = half_to_float(float_to_half(static_cast<float>(prob)));
  else if (prob_t == DType::kBFloat16) prob = bf16_to_float(float_to_bf16(static_cast<float>(prob)));
  else if (prob_t == DType::kFloat) prob = static_cast<float>(prob);
  if (out.numel() == 0) return;
  DensePlan p(b);
  const SeedPlan sp = plan_seed(p, seed);
  const int dst = p.output(out, DType::kUInt8);
  p.finish("dropout_gen_mask", [=](const DenseArgs& a) { write_mask(a.out<uint8_t>(dst), n, sp.resolve(a), prob); });
}

void plan_dropout(OpBuilder& b, const aclTensor* input_arg, double prob, bool train, int64_t seed, int64_t offset,
                  const aclTensor* out_arg, const aclTensor* mask_arg) {
  const aclTensor& input = b.input(input_arg, "input");
  const aclTensor& out = b.output(out_arg, "out");
  const aclTensor& mask = b.output(mask_arg, "maskOut");
  check_dtype_in(b.op(), "input", input.dtype, kDropoutTypes);
  check_dtype_in(b.op(), "out", out.dtype, kDropoutTypes);
  check_rank_between(input, "input", 0, 8);
  check_shape_equals(out, "out", input.view, "the shape of input");
  check_prob(prob, "p");
  const int64_t n = input.numel();
  check_mask(mask, "maskOut", n);
  if (n == 0) return;
  const bool identity = !train || prob == 0, zero = train && prob == 1;  // maskOut is left as it is
  DensePlan p(b);
  p.separate_outputs();
  const SeedPlan sp = plan_seed(p, host_seed(seed, offset));
  const int x = p.input(input, DType::kFloat);
  const int o = p.output(out, out.dtype);
  const int m = identity || zero ? -1 : p.output(mask, DType::kUInt8);
  const DType t = out.dtype;
  const float scale = static_cast<float>(1.0 / (1.0 - prob));
  p.finish(std::string("dropout.") + dtype_name(t), [=](const DenseArgs& a) {
    const float* xv = a.in<float>(x);
    if (identity || zero) {
      write_values(t, a.ptr(o), n, [&](int64_t i) { return zero ? 0.0f : xv[i]; });
      return;
    }
    uint8_t* mv = a.out<uint8_t>(m);
    write_mask(mv, n, sp.resolve(a), prob);
    apply_mask(t, a.ptr(o), xv, mv, n, scale);
  });
}

// DoMask (scale 1 / (1 - prob); prob 0: unchanged, prob 1: zeros) and Backward (scale; 0: zeros,
// 1: unchanged).
void plan_do_mask(OpBuilder& b, const aclTensor* self_arg, const char* self_name, const aclTensor* mask_arg,
                  double param, bool backward, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, self_name);
  const aclTensor& mask = b.input(mask_arg, "mask");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), self_name, self.dtype, kDropoutTypes);
  check_dtype_in(b.op(), "out", out.dtype, kDropoutTypes);
  check_rank_between(self, self_name, backward ? 1 : 0, 8);
  check_shape_equals(out, "out", self.view, backward ? "the shape of gradOutput" : "the shape of self");
  if (backward) {
    if (!(param == 0 || param >= 1)) invalid("scale is {}, expected 0 or a scale >= 1", param);
  } else {
    check_prob(param, "prob");
  }
  const int64_t n = self.numel();
  check_mask(mask, "mask", n);
  if (n == 0) return;
  const bool identity = backward ? param == 1 : param == 0, zero = backward ? param == 0 : param == 1;
  const float scale = static_cast<float>(backward ? param : 1.0 / (1.0 - param));
  DensePlan p(b);
  p.separate_outputs();
  const int x = p.input(self, DType::kFloat);
  const int m = p.input(mask, DType::kUInt8);
  const int o = p.output(out, out.dtype);
  const DType t = out.dtype;
  p.finish(std::string(backward ? "dropout_backward." : "dropout_do_mask.") + dtype_name(t), [=](const DenseArgs& a) {
    const float* xv = a.in<float>(x);
    if (identity || zero) {
      write_values(t, a.ptr(o), n, [&](int64_t i) { return zero ? 0.0f : xv[i]; });
      return;
    }
    apply_mask(t, a.ptr(o), xv, a.in<uint8_t>(m), n, scale);
  });
}

// ---- Randperm / Multinomial / exponential ---------------------------------------------------------------

constexpr DTypeMask kRandpermTypes = dtype_mask({DType::kInt64, DType::kInt32, DType::kInt16, DType::kUInt8, DType::kInt8,
                                                 DType::kFloat, DType::kFloat16, DType::kDouble, DType::kBFloat16});

void plan_randperm(OpBuilder& b, int64_t n, int64_t seed, int64_t offset, const aclTensor* out_arg) {
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "out", out.dtype, kRandpermTypes);
  if (n < 0) invalid("n is {}, expected n >= 0", n);
  check_shape_equals(out, "out", {n}, "[n]");
  // Every value 0 .. n-1 must be exact in out's dtype.
  double limit;
  switch (out.dtype) {
    case DType::kUInt8: limit = 256; break;
    case DType::kInt8: limit = 128; break;
    case DType::kInt16: limit = 32768; break;
    case DType::kInt32: limit = 2147483648.0; break;
    case DType::kFloat16: limit = 2049; break;
    case DType::kBFloat16: limit = 257; break;
    case DType::kFloat: limit = 16777217.0; break;
    case DType::kDouble: limit = 9007199254740993.0; break;
    default: limit = 9.3e18; break;
  }
  if (static_cast<double>(n) > limit)
    invalid("n is {}, too large for out's dtype {} (at most {} distinct exact values)", n, dtype_name(out.dtype), limit);
  if (n == 0) return;
  DensePlan p(b);
  const int dst = p.output(out, out.dtype);
  const size_t keys = p.scratch(static_cast<size_t>(n) * 2 * sizeof(uint64_t));
  const SeedPlan sp = plan_seed(p, host_seed(seed, offset));
  const DType t = out.dtype;
  p.finish(std::string("randperm.") + dtype_name(t), [=](const DenseArgs& a) {
    const Stream s = sp.resolve(a);
    auto* kv = a.scratch<std::pair<uint64_t, uint64_t>>(keys);
    parallel_for(n, 4096, [&](int64_t from, int64_t to, int) {
      for (int64_t i = from; i < to; ++i) {
        const auto w = s.words(i);
        kv[i] = {bits64(w[0], w[1]), static_cast<uint64_t>(i)};
      }
    });
    std::sort(kv, kv + n);
    write_values(t, a.ptr(dst), n, [&](int64_t i) { return static_cast<int64_t>(kv[i].second); });
  });
}

void plan_multinomial(OpBuilder& b, const aclTensor& self, int64_t samples, bool replacement, const SeedArg& seed,
                      const aclTensor& out) {
  check_dtype_in(b.op(), "self", self.dtype, kFloatingTypes);
  if (out.dtype != DType::kInt64) invalid("out has dtype {}, expected int64", dtype_name(out.dtype));
  check_rank_between(self, "self", 1, 2);
  const int64_t c = self.view.back(), rows = self.dim() == 2 ? self.view[0] : 1;
  if (samples <= 0) invalid("numsamples is {}, expected a positive number of samples", samples);
  if (!replacement && samples > c)
    invalid("numsamples is {}, expected at most the {} categories of self without replacement", samples, c);
  if (c > (int64_t{1} << 24)) invalid("self has {} categories, expected at most 2^24", c);
  check_shape_equals(out, "out", self.dim() == 2 ? Dims{rows, samples} : Dims{samples}, "[N, numsamples] or [numsamples]");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const SeedPlan sp = plan_seed(p, seed);
  const int w = p.input(self, DType::kDouble);
  const int dst = p.output(out, DType::kInt64);
  const size_t per_thread = static_cast<size_t>(c) * (sizeof(double) + sizeof(int64_t));
  const size_t scratch = p.scratch(per_thread * static_cast<size_t>(max_threads()));
  p.finish(std::string("multinomial.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const double* wv = a.in<double>(w);
    int64_t* o = a.out<int64_t>(dst);
    const Stream s = sp.resolve(a);
    for (int64_t r = 0; r < rows; ++r) {
      double total = 0;
      int64_t positive = 0;
      for (int64_t j = 0; j < c; ++j) {
        const double v = wv[r * c + j];
        if (!(v >= 0) || std::isinf(v)) invalid("self[{}] holds {}, expected finite weights >= 0", r * c + j, v);
        total += v;
        positive += v > 0;
      }
      if (!(total > 0)) invalid("row {} of self sums to {}, expected a positive total weight", r, total);
      if (!replacement && positive < samples)
        invalid("row {} of self has {} categories of positive weight, fewer than numsamples {} without replacement", r,
                positive, samples);
    }
    parallel_for(rows, 1, [&](int64_t from, int64_t to, int t) {
      char* base = a.scratch<char>(scratch) + per_thread * static_cast<size_t>(t);
      double* cdf = reinterpret_cast<double*>(base);
      int64_t* idx = reinterpret_cast<int64_t*>(base + static_cast<size_t>(c) * sizeof(double));
      for (int64_t r = from; r < to; ++r) {
        const double* row = wv + r * c;
        if (replacement) {
          double acc = 0;
          for (int64_t j = 0; j < c; ++j) cdf[j] = acc += row[j];
          for (int64_t k = 0; k < samples; ++k) {
            const auto wd = s.words(r * samples + k);
            const double u = u53(wd[0], wd[1]) * acc;
            int64_t j = std::upper_bound(cdf, cdf + c, u) - cdf;
            j = std::min(j, c - 1);
            while (row[j] == 0 && j > 0) --j;  // u landed on the end of a zero-weight run
            o[r * samples + k] = j;
          }
        } else {  // the `samples` largest keys log(u_j) / w_j
          for (int64_t j = 0; j < c; ++j) {
            const auto wd = s.words(r * c + j);
            const double u = 1.0 - u53(wd[0], wd[1]);  // (0, 1]
            cdf[j] = row[j] > 0 ? std::log(u) / row[j] : -HUGE_VAL;
            idx[j] = j;
          }
          std::partial_sort(idx, idx + samples, idx + c, [&](int64_t x, int64_t y) {
            return cdf[x] > cdf[y] || (cdf[x] == cdf[y] && x < y);
          });
          for (int64_t k = 0; k < samples; ++k) o[r * samples + k] = idx[k];
        }
      }
    });
  });
}

constexpr DTypeMask kExponentialTypes = dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat});

void plan_exponential(OpBuilder& b, const aclTensor* self_arg, int64_t count, double lambda, int64_t seed,
                      int64_t offset) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  check_dtype_in(b.op(), "selfRef", self.dtype, kExponentialTypes);
  check_rank_between(self, "selfRef", 0, 8);
  if (!(lambda > 0) || std::isinf(lambda)) invalid("lambda is {}, expected a finite lambda > 0", lambda);
  if (count < 0 || count > self.numel())
    invalid("count is {}, expected a count in [0, {}] (the elements of selfRef)", count, self.numel());
  if (count == 0) return;
  DensePlan p(b);
  const SeedPlan sp = plan_seed(p, host_seed(seed, offset));
  const int dst = p.output(self, DType::kFloat, Access::kReadWrite);
  const DType t = self.dtype;
  // The smallest positive value of the dtype: a sample that would round to 0 takes it (the values
  // are > 0 by definition).
  const float tiny = t == DType::kFloat16 ? 0x1p-24f : t == DType::kBFloat16 ? 0x1p-133f : 0x1p-149f;
  p.finish(std::string("exponential.") + dtype_name(t), [=](const DenseArgs& a) {
    const Stream s = sp.resolve(a);
    float* o = a.out<float>(dst);
    parallel_for(count, 4096, [&](int64_t from, int64_t to, int) {
      for (int64_t i = from; i < to; ++i) {
        const auto w = s.words(i);
        const double u = 1.0 - u53(w[0], w[1]);  // (0, 1]
        float v = static_cast<float>(-std::log(u) / lambda);
        const float r = t == DType::kFloat16 ? half_to_float(float_to_half(v))
                        : t == DType::kBFloat16 ? bf16_to_float(float_to_bf16(v))
                                                : v;
        if (!(r > 0)) v = tiny;
        o[i] = v;
      }
    });
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

// ---- entry points ---------------------------------------------------------------------------------------

#define PACL_PHASE1(Name, ...)                                                                                     \
  return pacl::run_phase1(pacl::op_##Name, "aclnn" #Name "GetWorkspaceSize", workspaceSize, executor,             \
                          [&](OpBuilder& b) { __VA_ARGS__; })

namespace {

const aclTensor& self_ref(OpBuilder& b, const aclTensor* t) { return b.inout(t, "selfRef"); }

pacl::DType prob_dtype(aclDataType t) {
  const auto d = static_cast<pacl::DType>(t);
  if (d != pacl::DType::kFloat && d != pacl::DType::kFloat16 && d != pacl::DType::kBFloat16)
    pacl::invalid("probDataType is {}, expected float32, float16 or bfloat16", pacl::dtype_name(d));
  return d;
}

}  // namespace

extern "C" aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor* selfRef, double from, double to,
                                                           uint64_t seed, uint64_t offset, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  PACL_PHASE1(InplaceUniform, pacl::plan_uniform(b, self_ref(b, selfRef), from, to,
                                                 pacl::host_seed(static_cast<int64_t>(seed), static_cast<int64_t>(offset))));
}

extern "C" aclnnStatus aclnnInplaceUniformTensorGetWorkspaceSize(const aclTensor* selfRef, double from, double to,
                                                                 const aclTensor* seedTensor,
                                                                 const aclTensor* offsetTensor, uint64_t offset,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(InplaceUniformTensor, const aclTensor& self = self_ref(b, selfRef);
              pacl::plan_uniform(b, self, from, to,
                                 pacl::tensor_seed(b, seedTensor, offsetTensor, static_cast<int64_t>(offset))));
}

extern "C" aclnnStatus aclnnInplaceRandomGetWorkspaceSize(const aclTensor* selfRef, int64_t from, int64_t to,
                                                          int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  const int64_t range[2] = {from, to};
  PACL_PHASE1(InplaceRandom, pacl::plan_random(b, self_ref(b, selfRef), range, pacl::host_seed(seed, offset)));
}

extern "C" aclnnStatus aclnnInplaceRandomTensorGetWorkspaceSize(const aclTensor* selfRef, int64_t from, int64_t to,
                                                                const aclTensor* seedTensor,
                                                                const aclTensor* offsetTensor, int64_t offset,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  const int64_t range[2] = {from, to};
  PACL_PHASE1(InplaceRandomTensor, const aclTensor& self = self_ref(b, selfRef);
              pacl::plan_random(b, self, range, pacl::tensor_seed(b, seedTensor, offsetTensor, offset)));
}

extern "C" aclnnStatus aclnnInplaceRandomWithoutFromToGetWorkspaceSize(const aclTensor* selfRef, int64_t seed,
                                                                       int64_t offset, uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor) {
  PACL_PHASE1(InplaceRandomWithoutFromTo,
              pacl::plan_random(b, self_ref(b, selfRef), nullptr, pacl::host_seed(seed, offset)));
}

extern "C" aclnnStatus aclnnInplaceRandomWithoutFromToTensorGetWorkspaceSize(const aclTensor* selfRef,
                                                                             const aclTensor* seedTensor,
                                                                             const aclTensor* offsetTensor,
                                                                             int64_t offset, uint64_t* workspaceSize,
                                                                             aclOpExecutor** executor) {
  PACL_PHASE1(InplaceRandomWithoutFromToTensor, const aclTensor& self = self_ref(b, selfRef);
              pacl::plan_random(b, self, nullptr, pacl::tensor_seed(b, seedTensor, offsetTensor, offset)));
}

extern "C" aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor* selfRef, float mean, float std,
                                                          int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  PACL_PHASE1(InplaceNormal, pacl::plan_inplace_normal(b, self_ref(b, selfRef), mean, std, pacl::host_seed(seed, offset)));
}

extern "C" aclnnStatus aclnnInplaceNormalTensorGetWorkspaceSize(const aclTensor* selfRef, float mean, float std,
                                                                const aclTensor* seedTensor,
                                                                const aclTensor* offsetTensor, int64_t offset,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(InplaceNormalTensor, const aclTensor& self = self_ref(b, selfRef);
              pacl::plan_inplace_normal(b, self, mean, std, pacl::tensor_seed(b, seedTensor, offsetTensor, offset)));
}

extern "C" aclnnStatus aclnnNormalTensorTensorGetWorkspaceSize(const aclTensor* mean, const aclTensor* std,
                                                               int64_t seed, int64_t offset, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(NormalTensorTensor, if (!mean) throw pacl::NullArgument("argument 'mean' is null");
              if (!std) throw pacl::NullArgument("argument 'std' is null");
              pacl::plan_normal_out(b, mean, 0, std, 0, seed, offset, out));
}

extern "C" aclnnStatus aclnnNormalTensorFloatGetWorkspaceSize(const aclTensor* mean, float std, int64_t seed,
                                                              int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  PACL_PHASE1(NormalTensorFloat, if (!mean) throw pacl::NullArgument("argument 'mean' is null");
              pacl::plan_normal_out(b, mean, 0, nullptr, std, seed, offset, out));
}

extern "C" aclnnStatus aclnnNormalFloatTensorGetWorkspaceSize(float mean, const aclTensor* std, int64_t seed,
                                                              int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  PACL_PHASE1(NormalFloatTensor, if (!std) throw pacl::NullArgument("argument 'std' is null");
              pacl::plan_normal_out(b, nullptr, mean, std, 0, seed, offset, out));
}

extern "C" aclnnStatus aclnnNormalFloatFloatGetWorkspaceSize(float mean, float std, int64_t seed, int64_t offset,
                                                             aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  PACL_PHASE1(NormalFloatFloat, pacl::plan_normal_out(b, nullptr, mean, nullptr, std, seed, offset, out));
}

extern "C" aclnnStatus aclnnBernoulliGetWorkspaceSize(const aclTensor* self, const aclScalar* prob, int64_t seed,
                                                      int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  PACL_PHASE1(Bernoulli, if (!prob) throw pacl::NullArgument("argument 'prob' is null");
              pacl::plan_bernoulli(b, self, prob, nullptr, seed, offset, out, false));
}

extern "C" aclnnStatus aclnnBernoulliTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* prob, int64_t seed,
                                                            int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  PACL_PHASE1(BernoulliTensor, if (!prob) throw pacl::NullArgument("argument 'prob' is null");
              pacl::plan_bernoulli(b, self, nullptr, prob, seed, offset, out, false));
}

extern "C" aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* prob,
                                                             int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  PACL_PHASE1(InplaceBernoulli, if (!prob) throw pacl::NullArgument("argument 'prob' is null");
              pacl::plan_bernoulli(b, selfRef, prob, nullptr, seed, offset, nullptr, true));
}

extern "C" aclnnStatus aclnnInplaceBernoulliTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* prob,
                                                                   int64_t seed, int64_t offset,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(InplaceBernoulliTensor, if (!prob) throw pacl::NullArgument("argument 'prob' is null");
              pacl::plan_bernoulli(b, selfRef, nullptr, prob, seed, offset, nullptr, true));
}

extern "C" aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor* input, double p, bool train, int64_t seed,
                                                    int64_t offset, aclTensor* out, aclTensor* maskOut,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(Dropout, pacl::plan_dropout(b, input, p, train, seed, offset, out, maskOut));
}

extern "C" aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray* shape, double prob, int64_t seed,
                                                           int64_t offset, aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  PACL_PHASE1(DropoutGenMask,
              pacl::plan_gen_mask(b, shape, prob, pacl::host_seed(seed, offset), pacl::DType::kDouble, out));
}

extern "C" aclnnStatus aclnnDropoutGenMaskV2GetWorkspaceSize(const aclIntArray* shape, double prob, int64_t seed,
                                                             int64_t offset, aclDataType probDataType, aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(DropoutGenMaskV2,
              pacl::plan_gen_mask(b, shape, prob, pacl::host_seed(seed, offset), prob_dtype(probDataType), out));
}

extern "C" aclnnStatus aclnnDropoutGenMaskV2TensorGetWorkspaceSize(const aclIntArray* shape, double prob,
                                                                   const aclTensor* seedTensor,
                                                                   const aclTensor* offsetTensor, int64_t offset,
                                                                   aclDataType probDataType, aclTensor* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(DropoutGenMaskV2Tensor, const pacl::SeedArg s = pacl::tensor_seed(b, seedTensor, offsetTensor, offset);
              pacl::plan_gen_mask(b, shape, prob, s, prob_dtype(probDataType), out));
}

extern "C" aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor* self, const aclTensor* mask, double prob,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  PACL_PHASE1(DropoutDoMask, pacl::plan_do_mask(b, self, "self", mask, prob, false, out));
}

extern "C" aclnnStatus aclnnDropoutBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* mask,
                                                            double scale, aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  PACL_PHASE1(DropoutBackward, pacl::plan_do_mask(b, gradOutput, "gradOutput", mask, scale, true, out));
}

extern "C" aclnnStatus aclnnRandpermGetWorkspaceSize(int64_t n, int64_t seed, int64_t offset, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(Randperm, pacl::plan_randperm(b, n, seed, offset, out));
}

extern "C" aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor* self, int64_t numsamples, bool replacement,
                                                        int64_t seed, int64_t offset, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(Multinomial, const aclTensor& s = b.input(self, "self"); const aclTensor& o = b.output(out, "out");
              pacl::plan_multinomial(b, s, numsamples, replacement, pacl::host_seed(seed, offset), o));
}

extern "C" aclnnStatus aclnnMultinomialTensorGetWorkspaceSize(const aclTensor* self, int64_t numsamples,
                                                              bool replacement, const aclTensor* seedTensor,
                                                              const aclTensor* offsetTensor, int64_t offset,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  PACL_PHASE1(MultinomialTensor, const aclTensor& s = b.input(self, "self");
              const pacl::SeedArg seed = pacl::tensor_seed(b, seedTensor, offsetTensor, offset);
              const aclTensor& o = b.output(out, "out");
              pacl::plan_multinomial(b, s, numsamples, replacement, seed, o));
}

extern "C" aclnnStatus aclnnSimThreadExponentialGetWorkspaceSize(aclTensor* selfRef, int64_t count, double lambda,
                                                                 int64_t seed, int64_t offset,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  PACL_PHASE1(SimThreadExponential, pacl::plan_exponential(b, selfRef, count, lambda, seed, offset));
}
