// Statistics and norms: Var, VarCorrection, VarMean, Std, StdMeanCorrection, BatchNormStats,
// LogSumExp, Norm, LinalgVectorNorm.
//
// Variance: each block of the reduction gets its mean and sum of squared deviations in double (two
// passes over the block, in cache), and blocks are combined with Chan's update; column reductions
// use Welford's update. var = M2 / max(0, N - correction) (CANN and PyTorch), so N <= correction
// gives inf (or NaN for M2 = 0). LogSumExp follows PyTorch: a NaN gives NaN, a +inf gives +inf,
// otherwise max + log(sum(exp(x - max))) over the finite maximum. Norms: p = 0 counts nonzeros,
// +-inf take the max/min of |x|, other p fold |x|^p and take the 1/p power; CANN fills the norm
// of an empty reduction with 0 (for every p).
#include <cmath>

#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
#include "core/phase.h"
#include "core/vector_math.h"
#include "ops/dims.h"
#include "ops/reduce.h"
#include "ops/registry.h"
#include "runtime/status.h"

namespace pacl {
namespace {

// ---- variance ----------------------------------------------------------------------------------

enum VarOutput : unsigned { kVar = 1, kStd = 2, kMean = 4, kInvStd = 8 };

template <typename T>
struct VarReducer {
  struct Acc {
    double n = 0, mean = 0, m2 = 0;
  };
  unsigned outputs;
  double correction, eps;
  T* var_out;   // variance or standard deviation
  T* mean_out;  // mean
  T* invstd_out;

  Acc init() const { return Acc{}; }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    const double bm = lane_sum<double>(x, n, [](T v) { return static_cast<double>(v); }) / static_cast<double>(n);
    const double m2 = lane_sum<double>(x, n, [bm](T v) {
      const double d = static_cast<double>(v) - bm;
      return d * d;
    });
    merge(a, Acc{static_cast<double>(n), bm, m2});
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      const double v = static_cast<double>(x[i]), d = v - a[i].mean;
      a[i].n += 1;
      a[i].mean += d / a[i].n;
      a[i].m2 += d * (v - a[i].mean);
    }
  }
  void merge(Acc& a, const Acc& b) const {
    if (b.n == 0) return;
    if (a.n == 0) {
      a = b;
      return;
    }
    const double n = a.n + b.n, d = b.mean - a.mean;
    a.mean += d * b.n / n;
    a.m2 += b.m2 + d * d * a.n * b.n / n;
    a.n = n;
  }
  void store(int64_t pos, const Acc& a, int64_t n) const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (outputs & kInvStd) {  // BatchNormStats: biased variance; an empty batch gives mean 0, invstd NaN
      mean_out[pos] = n == 0 ? T(0) : static_cast<T>(a.mean);
      invstd_out[pos] = n == 0 ? T(nan) : static_cast<T>(1.0 / std::sqrt(a.m2 / static_cast<double>(n) + eps));
      return;
    }
    const double var = a.m2 / std::max(0.0, static_cast<double>(n) - correction);
    if (outputs & kVar) var_out[pos] = static_cast<T>(var);
    if (outputs & kStd) var_out[pos] = static_cast<T>(std::sqrt(var));
    if (outputs & kMean) mean_out[pos] = n == 0 ? T(nan) : static_cast<T>(a.mean);
  }
};

struct MakeVar {
  unsigned outputs;
  double correction, eps;
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    VarReducer<T> r{outputs, correction, eps, nullptr, nullptr, nullptr};
    size_t k = 0;
    if (outputs & (kVar | kStd)) r.var_out = a.out<T>(ids[k++]);
    if (outputs & (kMean | kInvStd)) r.mean_out = a.out<T>(ids[k++]);
    if (outputs & kInvStd) r.invstd_out = a.out<T>(ids[k++]);
    return r;
  }
};

constexpr DTypeMask kVarTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

// The output of a computation in `compute` (a floating dtype): written in its arithmetic type and
// rounded to it when it is 16-bit and out has another dtype.
ReduceOut float_out(const aclTensor& t, DType compute) {
  const bool is16 = compute == DType::kFloat16 || compute == DType::kBFloat16;
  return ReduceOut{&t, arithmetic_dtype(compute), is16 ? compute : DType::kUndefined};
}

std::vector<bool> optional_dims(OpBuilder& b, const aclIntArray* dim_arg, const aclTensor& self) {
  const aclIntArray* dims = dim_arg ? &b.int_array(dim_arg, "dim") : nullptr;
  return reduce_mask(dims ? dims->values : std::vector<int64_t>{}, self.dim(), "dim", true);
}

// Var, VarCorrection, Std: one output; VarMean, StdMeanCorrection: two (var/std, then mean).
void plan_var(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, double correction, bool keepdim,
              const aclTensor* first_arg, const char* first_name, const aclTensor* mean_arg, bool with_mean,
              bool std_dev) {
  const aclTensor& self = b.input(self_arg, "self");
  const std::vector<bool> mask = optional_dims(b, dim_arg, self);
  const aclTensor& first = b.output(first_arg, first_name);
  const aclTensor* mean = with_mean ? &b.output(mean_arg, "meanOut") : nullptr;
  check_dtype_in(b.op(), "self", self.dtype, kVarTypes);
  check_dtype_in(b.op(), first_name, first.dtype, kVarTypes);
  if (mean) check_dtype_in(b.op(), "meanOut", mean->dtype, kVarTypes);
  check_rank(self, "self");
  const Dims shape = reduced_shape(self.view, mask, keepdim);
  check_rank(first, first_name);
  check_shape_equals(first, first_name, shape, "self's shape reduced over dim:");
  if (mean) check_shape_equals(*mean, "meanOut", shape, "self's shape reduced over dim:");
  std::vector<ReduceOut> outs{float_out(first, self.dtype)};
  unsigned which = std_dev ? kStd : kVar;
  if (mean) {
    outs.push_back(float_out(*mean, self.dtype));
    which |= kMean;
  }
  plan_reduction<TypeSet::kFloating>(b, std_dev ? "reduce.std" : "reduce.var", self, mask, self.dtype, outs,
                                     MakeVar{which, correction, 0.0});
}

void plan_batch_norm_stats(OpBuilder& b, const aclTensor* input_arg, double eps, const aclTensor* mean_arg,
                           const aclTensor* invstd_arg) {
  const aclTensor& input = b.input(input_arg, "input");
  const aclTensor& mean = b.output(mean_arg, "mean");
  const aclTensor& invstd = b.output(invstd_arg, "invstd");
  check_dtype_in(b.op(), "input", input.dtype, kVarTypes);
  check_dtype_in(b.op(), "mean", mean.dtype, dtype_mask({DType::kFloat}));
  check_dtype_in(b.op(), "invstd", invstd.dtype, dtype_mask({DType::kFloat}));
  if (input.dim() < 2 || input.dim() > 8)
    invalid("input has {} dims ({}), expected 2 to 8 with the channels in dim 1", input.dim(), input.describe());
  if (input.view[1] == 0) invalid("input has shape {}: the channel dim (1) is empty", dims_str(input.view));
  std::vector<bool> mask = all_dims_mask(input.dim());
  mask[1] = false;
  const Dims shape{input.view[1]};
  check_shape_equals(mean, "mean", shape, "[channels]:");
  check_shape_equals(invstd, "invstd", shape, "[channels]:");
  plan_reduction<TypeSet::kFloating>(b, "reduce.batch_norm_stats", input, mask, DType::kFloat,
                                     {ReduceOut{&mean, DType::kFloat}, ReduceOut{&invstd, DType::kFloat}},
                                     MakeVar{kInvStd, 0.0, eps});
}

// ---- log-sum-exp --------------------------------------------------------------------------------

template <typename T>
struct LogSumExpReducer {
  struct Acc {
    double m = -HUGE_VAL;  // largest finite value so far
    double s = 0;          // sum of exp(x - m) over the finite values
    bool nan = false, pinf = false;
  };
  T* out;

  Acc init() const { return Acc{}; }
  static void add(Acc& a, double bm, double bs) {
    if (bm > a.m) {
      a.s = a.s * std::exp(a.m - bm) + bs;
      a.m = bm;
    } else {
      a.s += bs * std::exp(bm - a.m);
    }
  }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    T lane[kLanes];
    for (auto& l : lane) l = -std::numeric_limits<T>::infinity();
    bool nan = false;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
      for (int j = 0; j < kLanes; ++j) lane[j] = x[i + j] > lane[j] ? x[i + j] : lane[j];
    for (; i < n; ++i) lane[0] = x[i] > lane[0] ? x[i] : lane[0];
    T bm = lane[0];
    for (int j = 1; j < kLanes; ++j) bm = lane[j] > bm ? lane[j] : bm;
    for (int64_t k = 0; k < n; ++k) nan |= x[k] != x[k];
    if (nan) a.nan = true;
    if (bm == std::numeric_limits<T>::infinity()) a.pinf = true;
    if (a.nan || a.pinf || bm == -std::numeric_limits<T>::infinity()) return;
    alignas(64) T e[kReduceBlock];
    for (int64_t k = 0; k < n; ++k) e[k] = std::exp(x[k] - bm);
    add(a, static_cast<double>(bm), lane_sum<T>(e, n, [](T v) { return v; }));
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      const T v = x[i];
      if (v != v) a[i].nan = true;
      else if (v == std::numeric_limits<T>::infinity()) a[i].pinf = true;
      else if (v != -std::numeric_limits<T>::infinity() && !a[i].nan && !a[i].pinf) add(a[i], static_cast<double>(v), 1.0);
    }
  }
  void merge(Acc& a, const Acc& b) const {
    a.nan |= b.nan;
    a.pinf |= b.pinf;
    if (b.m != -HUGE_VAL) add(a, b.m, b.s);
  }
  void store(int64_t pos, const Acc& a, int64_t) const {
    if (a.nan) out[pos] = std::numeric_limits<T>::quiet_NaN();
    else if (a.pinf) out[pos] = std::numeric_limits<T>::infinity();
    else if (a.m == -HUGE_VAL) out[pos] = -std::numeric_limits<T>::infinity();
    else out[pos] = static_cast<T>(a.m + std::log(a.s));
  }
};

struct MakeLogSumExp {
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    return LogSumExpReducer<T>{a.out<T>(ids[0])};
  }
};

void plan_logsumexp(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dim_arg, bool keepdim,
                    const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dim = b.int_array(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kAllTypes & ~dtype_mask({DType::kDouble}));
  check_dtype_in(b.op(), "out", out.dtype, kVarTypes);
  check_rank(self, "self");
  check_rank(out, "out");
  const std::vector<bool> mask = reduce_mask(dim.values, self.dim(), "dim", true);
  check_shape_equals(out, "out", reduced_shape(self.view, mask, keepdim), "self's shape reduced over dim:");
  plan_reduction<TypeSet::kFloating>(b, "reduce.logsumexp", self, mask, DType::kFloat,
                                     {ReduceOut{&out, DType::kFloat}}, MakeLogSumExp{});
}

// ---- norms --------------------------------------------------------------------------------------

enum class NormKind { kZero, kOne, kTwo, kInf, kNegInf, kP };

template <typename T>
inline T abs_of(T v) {
  return std::fabs(v);
}

template <typename T>
struct NormReducer {
  using Acc = double;
  NormKind kind;
  T p;
  T* out;

  Acc init() const { return kind == NormKind::kNegInf ? HUGE_VAL : 0.0; }
  // a, folded with |x| as the max (kInf) or the min (kNegInf), NaN sticking.
  static double pick(bool max, double a, double v) { return ((max ? v > a : v < a) || v != v) ? v : a; }
  void row(Acc& a, const T* x, int64_t n, int64_t) const {
    switch (kind) {
      case NormKind::kZero: a += lane_sum<T>(x, n, [](T v) { return v != T(0) ? T(1) : T(0); }); return;
      case NormKind::kOne: a += lane_sum<T>(x, n, [](T v) { return abs_of(v); }); return;
      case NormKind::kTwo: a += lane_sum<T>(x, n, [](T v) { return v * v; }); return;
      case NormKind::kP: {
        alignas(64) T t[kReduceBlock];
        const T q = p;
        for (int64_t k = 0; k < n; ++k) t[k] = std::pow(abs_of(x[k]), q);
        a += lane_sum<T>(t, n, [](T v) { return v; });
        return;
      }
      case NormKind::kInf:
      case NormKind::kNegInf: {
        const bool max = kind == NormKind::kInf;
        T lane[kLanes];
        for (auto& l : lane) l = static_cast<T>(a);
        int64_t i = 0;
        for (; i + kLanes <= n; i += kLanes)
          for (int j = 0; j < kLanes; ++j) {
            const T v = abs_of(x[i + j]);
            lane[j] = ((max ? v > lane[j] : v < lane[j]) || v != v) ? v : lane[j];
          }
        for (; i < n; ++i) a = pick(max, a, static_cast<double>(abs_of(x[i])));
        for (int j = 0; j < kLanes; ++j) a = pick(max, a, static_cast<double>(lane[j]));
        return;
      }
    }
  }
  void col(Acc* a, const T* x, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) a[i] = fold(a[i], x[i]);
  }
  Acc fold(Acc a, T v) const {
    switch (kind) {
      case NormKind::kZero: return a + (v != T(0) ? 1.0 : 0.0);
      case NormKind::kOne: return a + static_cast<double>(abs_of(v));
      case NormKind::kTwo: return a + static_cast<double>(v * v);
      case NormKind::kP: return a + static_cast<double>(std::pow(abs_of(v), p));
      case NormKind::kInf: return pick(true, a, static_cast<double>(abs_of(v)));
      case NormKind::kNegInf: return pick(false, a, static_cast<double>(abs_of(v)));
    }
    return a;
  }
  void merge(Acc& a, const Acc& b) const {
    if (kind == NormKind::kInf || kind == NormKind::kNegInf) a = pick(kind == NormKind::kInf, a, b);
    else a += b;
  }
  void store(int64_t pos, const Acc& a, int64_t n) const {
    double r = a;
    if (n == 0) r = 0;  // CANN: the norm of nothing is 0, for every p
    else if (kind == NormKind::kTwo) r = std::sqrt(a);
    else if (kind == NormKind::kP) r = std::pow(a, 1.0 / static_cast<double>(p));
    out[pos] = static_cast<T>(r);
  }
};

struct MakeNorm {
  NormKind kind;
  double p;
  template <typename Tag>
  auto operator()(Tag, const DenseArgs& a, const std::vector<int>& ids) const {
    using T = typename Tag::type;
    return NormReducer<T>{kind, static_cast<T>(p), a.out<T>(ids[0])};
  }
};

NormKind norm_kind(double p) {
  if (p == 0) return NormKind::kZero;
  if (p == 1) return NormKind::kOne;
  if (p == 2) return NormKind::kTwo;
  if (p == HUGE_VAL) return NormKind::kInf;
  if (p == -HUGE_VAL) return NormKind::kNegInf;
  return NormKind::kP;
}

// out = norm of self (cast to `compute`) over dims, rounded to compute, then converted to out.
void plan_norm_common(OpBuilder& b, const aclTensor& self, const aclScalar& p_scalar, const char* p_name,
                      const aclIntArray& dims, const char* dims_name, bool keepdim, DType compute, const aclTensor& out) {
  if (!is_floating(p_scalar.dtype) && !is_integral(p_scalar.dtype, false))
    invalid("{} has dtype {}, expected a real number", p_name, dtype_name(p_scalar.dtype));
  const double p = p_scalar.to_double();
  if (std::isnan(p)) invalid("{} is NaN, expected a real number or +-inf", p_name);
  check_rank(self, "self");
  check_rank(out, "out");
  const std::vector<bool> mask = reduce_mask(dims.values, self.dim(), dims_name, true);
  check_shape_equals(out, "out", reduced_shape(self.view, mask, keepdim), "self's shape reduced over the dims:");
  plan_reduction<TypeSet::kFloating>(b, "reduce.norm", self, mask, compute, {float_out(out, compute)},
                                     MakeNorm{norm_kind(p), p});
}

void plan_norm(OpBuilder& b, const aclTensor* self_arg, const aclScalar* p_arg, const aclIntArray* dim_arg, bool keepdim,
               const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclScalar& p = b.scalar(p_arg, "pScalar");
  const aclIntArray& dim = b.int_array(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kVarTypes);
  check_dtype_in(b.op(), "out", out.dtype, kVarTypes);
  plan_norm_common(b, self, p, "pScalar", dim, "dim", keepdim, self.dtype, out);
}

void plan_linalg_vector_norm(OpBuilder& b, const aclTensor* self_arg, const aclScalar* ord_arg,
                             const aclIntArray* dims_arg, bool keepdim, int32_t dtype_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclScalar& ord = b.scalar(ord_arg, "ord");
  const aclIntArray& dims = b.int_array(dims_arg, "dims");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_dtype_in(b.op(), "self", self.dtype, kVarTypes);
  check_dtype_in(b.op(), "dtype", dtype, kVarTypes);
  check_dtype_in(b.op(), "out", out.dtype, kVarTypes);
  if (out.dtype != dtype)
    invalid("out has dtype {}, expected the dtype argument ({})", dtype_name(out.dtype), dtype_name(dtype));
  if (dtype != self.dtype && dtype != DType::kFloat)
    invalid("dtype is {} for self of dtype {}; expected {} or float32", dtype_name(dtype), dtype_name(self.dtype),
            dtype_name(self.dtype));
  plan_norm_common(b, self, ord, "ord", dims, "dims", keepdim, dtype, out);
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool unbiased,
                                                bool keepdim, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Var, "aclnnVarGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_var(b, self, dim, unbiased ? 1.0 : 0.0, keepdim, out, "out", nullptr, false, false);
  });
}

extern "C" aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                          int64_t correction, bool keepdim, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_VarCorrection, "aclnnVarCorrectionGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_var(b, self, dim, static_cast<double>(correction), keepdim, out, "out", nullptr,
                                           false, false);
                          });
}

extern "C" aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t correction,
                                                    bool keepdim, aclTensor* varOut, aclTensor* meanOut,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_VarMean, "aclnnVarMeanGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_var(b, self, dim, static_cast<double>(correction), keepdim, varOut, "varOut",
                                           meanOut, true, false);
                          });
}

extern "C" aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, const int64_t correction,
                                                bool keepdim, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Std, "aclnnStdGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_var(b, self, dim, static_cast<double>(correction), keepdim, out, "out", nullptr, false, true);
  });
}

extern "C" aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                              int64_t correction, bool keepdim, aclTensor* stdOut,
                                                              aclTensor* meanOut, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_StdMeanCorrection, "aclnnStdMeanCorrectionGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_var(b, self, dim, static_cast<double>(correction), keepdim, stdOut, "stdOut",
                                           meanOut, true, true);
                          });
}

extern "C" aclnnStatus aclnnBatchNormStatsGetWorkspaceSize(const aclTensor* input, double eps, aclTensor* mean,
                                                           aclTensor* invstd, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchNormStats, "aclnnBatchNormStatsGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_batch_norm_stats(b, input, eps, mean, invstd); });
}

extern "C" aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LogSumExp, "aclnnLogSumExpGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_logsumexp(b, self, dim, keepDim, out); });
}

extern "C" aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                                 const aclIntArray* dim, bool keepdim, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Norm, "aclnnNormGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_norm(b, self, pScalar, dim, keepdim, out); });
}

extern "C" aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor* self, const aclScalar* ord,
                                                             const aclIntArray* dims, bool keepDims,
                                                             const aclDataType dtype, aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_LinalgVectorNorm, "aclnnLinalgVectorNormGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_linalg_vector_norm(b, self, ord, dims, keepDims, dtype, out);
                          });
}
