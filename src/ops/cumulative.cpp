// Scans along one dim: Cumsum, CumsumV2 (exclusive, reverse), Cumprod, InplaceCumprod, Cummax,
// Cummin. self is read as a dense [outer, length, inner] array of the compute dtype; each
// (outer, tile of inner) row is scanned with the running state of a whole tile updated per step,
// so the inner loop runs over contiguous positions. Floating running sums and products are kept
// in double (PyTorch's CPU accumulate type), integer ones wrap in 64 bits. Cummax/Cummin follow
// PyTorch: a NaN is sticky, and an equal value moves the index forward (the last position reached).
#include "aclnnop/aclnn_cummax.h"
#include "aclnnop/aclnn_cummin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/reduce.h"
#include "ops/registry.h"
#include "runtime/status.h"

namespace pacl {
namespace {

struct ScanShape {
  int64_t outer = 1, len = 1, inner = 1;
};

template <typename T, bool kExclusive>
struct SumScan {
  using Acc = wide_t<T>;
  Acc init() const { return 0; }
  void step(Acc* a, const T* x, T* y, int64_t*, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      Acc v;
      if constexpr (std::is_floating_point_v<T>) v = static_cast<Acc>(x[i]);
      else v = static_cast<Acc>(static_cast<int64_t>(x[i]));
      if constexpr (kExclusive) {
        y[i] = narrow<T>(a[i]);
        a[i] += v;
      } else {
        a[i] += v;
        y[i] = narrow<T>(a[i]);
      }
    }
  }
};

template <typename T>
struct ProdScan {
  using Acc = wide_t<T>;
  Acc init() const { return 1; }
  void step(Acc* a, const T* x, T* y, int64_t*, int64_t w, int64_t) const {
    for (int64_t i = 0; i < w; ++i) {
      if constexpr (std::is_floating_point_v<T>) a[i] *= static_cast<Acc>(x[i]);
      else a[i] *= static_cast<Acc>(static_cast<int64_t>(x[i]));
      y[i] = narrow<T>(a[i]);
    }
  }
};

template <typename T, bool kMax>
struct ExtremeScan {
  struct Acc {
    T v{};
    int64_t i = -1;
  };
  Acc init() const { return Acc{}; }
  void step(Acc* a, const T* x, T* y, int64_t* idx, int64_t w, int64_t r) const {
    for (int64_t i = 0; i < w; ++i) {
      const T v = x[i];
      if (a[i].i < 0 || is_nan(v) || (!is_nan(a[i].v) && (kMax ? v >= a[i].v : v <= a[i].v))) {
        a[i].v = v;
        a[i].i = r;
      }
      y[i] = a[i].v;
      idx[i] = a[i].i;
    }
  }
};

template <typename T, typename Scan>
void run_scan(const ScanShape& s, DType stored, const void* in, T* out, int64_t* idx, bool reverse, const Scan& sc) {
  using Acc = typename Scan::Acc;
  ReduceLayout L;  // only its dtypes matter to the loader
  L.stored = stored;
  const int64_t es = static_cast<int64_t>(dtype_size(stored));
  const int64_t tile = std::min(s.inner, kReduceTile), tiles = (s.inner + tile - 1) / tile;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, s.len * tile));
  parallel_for(s.outer * tiles, grain, [&](int64_t b, int64_t e, int) {
    Acc acc[kReduceTile];
    alignas(64) T buf[kReduceTile];
    for (int64_t u = b; u < e; ++u) {
      const int64_t o = u / tiles, i0 = (u % tiles) * tile, w = std::min(tile, s.inner - i0);
      for (int64_t i = 0; i < w; ++i) acc[i] = sc.init();
      for (int64_t k = 0; k < s.len; ++k) {
        const int64_t r = reverse ? s.len - 1 - k : k;
        const int64_t at = (o * s.len + r) * s.inner + i0;
        const T* x = reduce_detail::load<T>(L, static_cast<const char*>(in) + at * es, 1, w, buf);
        sc.step(acc, x, out + at, idx ? idx + at : nullptr, w, r);
      }
    }
  });
}

ScanShape scan_shape(const aclTensor& t, int64_t dim) {
  ScanShape s;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t n = t.view[static_cast<size_t>(d)];
    if (d < dim) s.outer *= n;
    else if (d == dim) s.len = n;
    else s.inner *= n;
  }
  return s;
}

enum class ScanKind { kSum, kSumExclusive, kProd, kMax, kMin };

// Plans out (and indices) = scan of self along dim in `compute`. inplace: self is out (read and
// written through one buffer).
void plan_scan(OpBuilder& b, const aclTensor& self, int64_t dim, DType compute, const aclTensor& out,
               const aclTensor* indices, ScanKind kind, bool reverse, bool inplace) {
  if (out.numel() == 0) return;
  const ScanShape s = scan_shape(self, dim);
  DensePlan p(b);
  p.separate_outputs();
  const DType t = arithmetic_dtype(compute);
  const int in = inplace ? -1 : p.input(self, compute);
  const int o = p.output(out, t, inplace ? Access::kReadWrite : Access::kWrite);
  const int ix = indices ? p.output(*indices, DType::kInt64) : -1;
  const DType stored = inplace ? t : compute;
  const std::string name = std::string("scan.") + b.op().name + "." + dtype_name(compute);
  const bool is16 = compute == DType::kFloat16 || compute == DType::kBFloat16;
  const bool round = is16 && out.dtype != compute;
  const int64_t count = out.numel();
  visit_arithmetic(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    p.finish(name, [=](const DenseArgs& a) {
      const void* src = inplace ? a.ptr(o) : a.ptr(in);
      T* dst = a.out<T>(o);
      int64_t* idx = ix >= 0 ? a.out<int64_t>(ix) : nullptr;
      switch (kind) {
        case ScanKind::kSum: run_scan<T>(s, stored, src, dst, idx, reverse, SumScan<T, false>{}); break;
        case ScanKind::kSumExclusive: run_scan<T>(s, stored, src, dst, idx, reverse, SumScan<T, true>{}); break;
        case ScanKind::kProd: run_scan<T>(s, stored, src, dst, idx, reverse, ProdScan<T>{}); break;
        case ScanKind::kMax: run_scan<T>(s, stored, src, dst, idx, reverse, ExtremeScan<T, true>{}); break;
        case ScanKind::kMin: run_scan<T>(s, stored, src, dst, idx, reverse, ExtremeScan<T, false>{}); break;
      }
      if constexpr (std::is_same_v<T, float>)
        if (round) round_to_16bit(compute, dst, count);
    });
  });
}

constexpr DTypeMask kCumsumTypes = kNumericTypes;
constexpr DTypeMask kCumprodTypes = kNumericTypes;
constexpr DTypeMask kCumExtremeTypes = kAllTypes;

void check_same_shape(const aclTensor& out, const char* name, const aclTensor& self) {
  check_rank(out, name);
  check_shape_equals(out, name, self.view, "self's shape");
}

void plan_cumsum(OpBuilder& b, const aclTensor* self_arg, int64_t dim, int32_t dtype_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  const DType dtype = static_cast<DType>(dtype_arg);
  check_dtype_in(b.op(), "self", self.dtype, kCumsumTypes);
  check_dtype_in(b.op(), "dtype", dtype, kCumsumTypes);
  check_dtype_in(b.op(), "out", out.dtype, kCumsumTypes);
  if (out.dtype != dtype)
    invalid("out has dtype {}, expected the dtype argument ({})", dtype_name(out.dtype), dtype_name(dtype));
  if (!can_cast(self.dtype, dtype))
    invalid("self dtype {} cannot be cast to out's dtype {}", dtype_name(self.dtype), dtype_name(dtype));
  check_rank(self, "self");
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_same_shape(out, "out", self);
  plan_scan(b, self, d, dtype, out, nullptr, ScanKind::kSum, false, false);
}

void plan_cumsum_v2(OpBuilder& b, const aclTensor* self_arg, int64_t dim, bool exclusive, bool reverse,
                    const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kCumsumTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  check_rank(self, "self");
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_same_shape(out, "out", self);
  plan_scan(b, self, d, self.dtype, out, nullptr, exclusive ? ScanKind::kSumExclusive : ScanKind::kSum, reverse, false);
}

int64_t scalar_dim(const aclScalar& dim) {
  if (!is_integral(dim.dtype, false)) invalid("dim has dtype {}, expected an integer", dtype_name(dim.dtype));
  return dim.to_int64();
}

void check_cumprod_dtype(const OpInfo& op, const char* name, DType t) {
  if (t == DType::kUInt16 || t == DType::kUInt32 || t == DType::kUInt64)
    unsupported("{} dtype {} is not supported by pacl's aclnn{} yet; supported: {}", name, dtype_name(t), op.name,
                mask_names(kCumprodTypes));
  check_dtype_in(op, name, t, kCumprodTypes);
}

void plan_cumprod(OpBuilder& b, const aclTensor* input_arg, const aclScalar* dim_arg, int32_t dtype_arg,
                  const aclTensor* out_arg) {
  const aclTensor& input = b.input(input_arg, "input");
  const aclScalar& dim = b.scalar(dim_arg, "dim");
  const aclTensor& out = b.output(out_arg, "out");
  DType dtype = static_cast<DType>(dtype_arg);
  if (dtype == DType::kUndefined) dtype = input.dtype;
  check_cumprod_dtype(b.op(), "input", input.dtype);
  check_cumprod_dtype(b.op(), "dtype", dtype);
  if (out.dtype != dtype)
    invalid("out has dtype {}, expected {} (the dtype argument, or input's when undefined)", dtype_name(out.dtype),
            dtype_name(dtype));
  check_rank(input, "input");
  const int64_t d = wrap_dim(scalar_dim(dim), input.dim(), "dim");
  check_same_shape(out, "out", input);
  plan_scan(b, input, d, dtype, out, nullptr, ScanKind::kProd, false, false);
}

void plan_inplace_cumprod(OpBuilder& b, const aclTensor* input_arg, const aclScalar* dim_arg) {
  const aclTensor& input = b.inout(input_arg, "input");
  const aclScalar& dim = b.scalar(dim_arg, "dim");
  check_cumprod_dtype(b.op(), "input", input.dtype);
  check_rank(input, "input");
  const int64_t d = wrap_dim(scalar_dim(dim), input.dim(), "dim");
  plan_scan(b, input, d, input.dtype, input, nullptr, ScanKind::kProd, false, true);
}

void plan_cum_extreme(OpBuilder& b, const aclTensor* self_arg, int64_t dim, const aclTensor* values_arg,
                      const aclTensor* indices_arg, bool is_max) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& values = b.output(values_arg, "valuesOut");
  const aclTensor& indices = b.output(indices_arg, "indicesOut");
  check_dtype_in(b.op(), "self", self.dtype, kCumExtremeTypes);
  if (values.dtype != self.dtype)
    invalid("valuesOut has dtype {}, expected the dtype of self ({})", dtype_name(values.dtype), dtype_name(self.dtype));
  check_dtype_in(b.op(), "indicesOut", indices.dtype, dtype_mask({DType::kInt32, DType::kInt64}));
  check_rank(self, "self");
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_same_shape(values, "valuesOut", self);
  check_same_shape(indices, "indicesOut", self);
  plan_scan(b, self, d, self.dtype, values, &indices, is_max ? ScanKind::kMax : ScanKind::kMin, false, false);
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype,
                                                   aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Cumsum, "aclnnCumsumGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_cumsum(b, self, dim, dtype, out); });
}

extern "C" aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive, bool reverse,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_CumsumV2, "aclnnCumsumV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_cumsum_v2(b, self, dim, exclusive, reverse, out); });
}

extern "C" aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor* input, const aclScalar* dim,
                                                    const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Cumprod, "aclnnCumprodGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_cumprod(b, input, dim, dtype, out); });
}

extern "C" aclnnStatus aclnnInplaceCumprodGetWorkspaceSize(aclTensor* input, const aclScalar* dim,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceCumprod, "aclnnInplaceCumprodGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_inplace_cumprod(b, input, dim); });
}

extern "C" aclnnStatus aclnnCummaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut,
                                                   aclTensor* indicesOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Cummax, "aclnnCummaxGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_cum_extreme(b, self, dim, valuesOut, indicesOut, true); });
}

extern "C" aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* valuesOut,
                                                   aclTensor* indicesOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Cummin, "aclnnCumminGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_cum_extreme(b, self, dim, valuesOut, indicesOut, false); });
}
