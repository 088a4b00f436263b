// Order statistics of CANN's gather_v2 family (Kthvalue, Median, MedianDim, NanMedian, NanMedianDim)
// and the matrix Inverse. Order statistics sort (value, position) pairs stably with NaN above every
// number, which reproduces PyTorch's choice of index among equal values; values are copied from self
// bit for bit. Median forms propagate NaN (the first NaN's position is reported); NanMedian forms
// ignore NaN (an all-NaN row gives NaN at position 0).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "aclnnop/aclnn_inverse.h"
#include "aclnnop/aclnn_kthvalue.h"
#include "aclnnop/aclnn_median.h"
#include "core/convert.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;

int64_t prod(const Dims& d, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t k = from; k < to && k < d.size(); ++k) n *= d[k];
  return n;
}

template <typename F>
void visit_ordered(DType t, F&& f) {
  switch (t) {
    case DType::kUInt16: return f(type_tag<uint16_t>{});
    case DType::kUInt32: return f(type_tag<uint32_t>{});
    case DType::kUInt64: return f(type_tag<uint64_t>{});
    default: return visit_dtype(t, f);
  }
}

template <typename S>
compute_t<S> key_of(const S& v) {
  if constexpr (is_16bit_float_v<S>) return convert_value<float>(v);
  else return v;
}

template <typename V>
bool key_is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) return std::isnan(v);
  else return false;
}

enum class Pick { kKth, kMedian, kNanMedian };

// For every row (outer x inner, running along the reduced axis of length size): the chosen position.
// k is 1-based for kKth.
struct Selection {
  int64_t outer = 1, size = 1, inner = 1;
  Pick pick = Pick::kKth;
  int64_t k = 1;
};

template <typename S>
void select_rows(const S* x, const Selection& s, int64_t* pos_out) {
  const int64_t rows = s.outer * s.inner;
  auto run = [&](int64_t from, int64_t to, int) {
    using V = compute_t<S>;
    std::vector<std::pair<V, int64_t>> v(static_cast<size_t>(s.size));
    for (int64_t r = from; r < to; ++r) {
      const int64_t o = r / s.inner, i = r % s.inner;
      int64_t first_nan = -1;
      size_t n = 0;
      for (int64_t j = 0; j < s.size; ++j) {
        const V d = key_of(x[(o * s.size + j) * s.inner + i]);
        if (key_is_nan(d)) {
          if (first_nan < 0) first_nan = j;
          if (s.pick == Pick::kNanMedian) continue;
        }
        v[n++] = {d, j};
      }
      if (s.pick == Pick::kMedian && first_nan >= 0) {
        pos_out[r] = first_nan;
        continue;
      }
      if (n == 0) {  // NanMedian of an all-NaN row
        pos_out[r] = 0;
        continue;
      }
      auto less = [](const std::pair<V, int64_t>& a, const std::pair<V, int64_t>& b) {
        const bool an = key_is_nan(a.first), bn = key_is_nan(b.first);
        if (an || bn) return !an && bn;
        return a.first < b.first;
      };
      std::stable_sort(v.begin(), v.begin() + static_cast<int64_t>(n), less);
      const int64_t at = s.pick == Pick::kKth ? s.k - 1 : (static_cast<int64_t>(n) - 1) / 2;
      pos_out[r] = v[static_cast<size_t>(at)].second;
    }
  };
  if (rows > 1 && rows * s.size >= 32 * 1024) parallel_for(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(s.size, 1)), run);
  else run(0, rows, 0);
}

// Checks the reduced output shape (keepdim or not) of a dim reduction.
void check_reduced(const aclTensor& t, const char* name, const aclTensor& self, int64_t d, bool keepdim) {
  Dims expect = self.view;
  if (!expect.empty()) {
    if (keepdim) expect[static_cast<size_t>(d)] = 1;
    else expect.erase(expect.begin() + d);
  }
  check_shape_equals(t, name, expect, keepdim ? "self's shape with dim reduced to 1" : "self's shape without dim");
}

constexpr DTypeMask kMedianTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kUInt8, DType::kInt8, DType::kInt16,
                                               DType::kInt32, DType::kInt64, DType::kBFloat16});
constexpr DTypeMask kKthTypes = (kMedianTypes) | kUnsignedWideTypes;

// valuesOut (and indicesOut when given) = the picked element of each row.
void plan_select(OpBuilder& b, const aclTensor& self, const aclTensor& values, const aclTensor* indices, Selection s) {
  if (values.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int si = p.input(self, self.dtype);
  const int vi = p.output(values, values.dtype);
  const int ii = indices ? p.output(*indices, DType::kInt64) : -1;
  const size_t pos_at = p.scratch(static_cast<size_t>(s.outer * s.inner) * sizeof(int64_t));
  const DType t = self.dtype;
  const size_t esize = self.elem_size();
  p.finish(std::string("index.select_kth.") + dtype_name(t), [=](const DenseArgs& a) {
    int64_t* pos = ii >= 0 ? a.out<int64_t>(ii) : a.scratch<int64_t>(pos_at);
    visit_ordered(t, [&](auto tag) {
      using S = typename decltype(tag)::type;
      select_rows(a.in<S>(si), s, pos);
    });
    const char* x = static_cast<const char*>(a.ptr(si));
    char* y = static_cast<char*>(a.ptr(vi));
    const int64_t rows = s.outer * s.inner;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t o = r / s.inner, i = r % s.inner;
      std::memcpy(y + r * static_cast<int64_t>(esize), x + ((o * s.size + pos[r]) * s.inner + i) * static_cast<int64_t>(esize),
                  esize);
    }
  });
}

void plan_dim_select(OpBuilder& b, const aclTensor* self_arg, int64_t dim, bool keepdim, const aclTensor* values_arg,
                     const aclTensor* indices_arg, Pick pick, int64_t k, DTypeMask types) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& values = b.output(values_arg, "valuesOut");
  const aclTensor& indices = b.output(indices_arg, "indicesOut");
  check_dtype_in(b.op(), "self", self.dtype, types);
  if (values.dtype != self.dtype)
    invalid("valuesOut has dtype {}, expected the dtype of self ({})", dtype_name(values.dtype), dtype_name(self.dtype));
  if (indices.dtype != DType::kInt64) invalid("indicesOut has dtype {}, expected int64", dtype_name(indices.dtype));
  check_rank(self, "self", kMaxRank);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  const Dims shape = self.view.empty() ? Dims{1} : self.view;
  Selection s;
  s.outer = prod(shape, 0, static_cast<size_t>(d));
  s.size = shape[static_cast<size_t>(d)];
  s.inner = prod(shape, static_cast<size_t>(d) + 1, shape.size());
  s.pick = pick;
  s.k = k;
  if (pick == Pick::kKth && (k < 1 || k > s.size))
    invalid("k is {}, expected a value in [1, {}] (self.shape[{}])", k, s.size, d);
  if (pick != Pick::kKth && s.size == 0) invalid("self.shape[{}] is 0: the median of nothing is undefined", d);
  check_reduced(values, "valuesOut", self, d, keepdim);
  check_reduced(indices, "indicesOut", self, d, keepdim);
  plan_select(b, self, values, &indices, s);
}

void plan_all_select(OpBuilder& b, const aclTensor* self_arg, const aclTensor* values_arg, const char* values_name,
                     Pick pick) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& values = b.output(values_arg, values_name);
  check_dtype_in(b.op(), "self", self.dtype, kMedianTypes);
  if (values.dtype != self.dtype)
    invalid("{} has dtype {}, expected the dtype of self ({})", values_name, dtype_name(values.dtype), dtype_name(self.dtype));
  check_rank(self, "self", kMaxRank);
  if (values.numel() != 1 || values.dim() > 1)
    invalid("{} has shape {}, expected a single element ([] or [1])", values_name, dims_str(values.view));
  if (self.numel() == 0) invalid("self is empty: the median of nothing is undefined");
  Selection s;
  s.size = self.numel();
  s.pick = pick;
  plan_select(b, self, values, nullptr, s);
}

// ---- Inverse ----------------------------------------------------------------------------------------------

void plan_inverse(OpBuilder& b, const aclTensor* self_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, dtype_mask({DType::kFloat, DType::kFloat16, DType::kDouble}));
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  if (self.dim() < 2) invalid("self has {} dims ({}), expected at least 2", self.dim(), dims_str(self.view));
  check_rank(self, "self", kMaxRank);
  const int64_t n = self.view.back();
  if (self.view[self.view.size() - 2] != n)
    invalid("self has shape {}: its last two dims must be equal (square matrices)", dims_str(self.view));
  check_shape_equals(out, "out", self.view, "self's shape");
  if (self.numel() == 0) invalid("self is empty ({}), expected at least one matrix", dims_str(self.view));
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, DType::kDouble);
  const int o = p.output(out, DType::kDouble);
  const int64_t batch = self.numel() / (n * n);
  const size_t work_at = p.scratch(static_cast<size_t>(n * n) * sizeof(double));
  p.finish(std::string("index.inverse.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    double* w = a.scratch<double>(work_at);
    for (int64_t m = 0; m < batch; ++m) {
      const double* x = a.in<double>(s) + m * n * n;
      double* y = a.out<double>(o) + m * n * n;
      std::copy(x, x + n * n, w);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) y[i * n + j] = i == j ? 1.0 : 0.0;
      for (int64_t c = 0; c < n; ++c) {  // Gauss-Jordan with partial pivoting
        int64_t piv = c;
        for (int64_t r = c + 1; r < n; ++r)
          if (std::fabs(w[r * n + c]) > std::fabs(w[piv * n + c])) piv = r;
        if (w[piv * n + c] == 0.0 || std::isnan(w[piv * n + c]))
          throw InvalidArgument(fmt::format("aclnnInverse: matrix {} of self is singular (no pivot in column {})", m, c));
        if (piv != c)
          for (int64_t j = 0; j < n; ++j) {
            std::swap(w[piv * n + j], w[c * n + j]);
            std::swap(y[piv * n + j], y[c * n + j]);
          }
        const double inv = 1.0 / w[c * n + c];
        for (int64_t j = 0; j < n; ++j) {
          w[c * n + j] *= inv;
          y[c * n + j] *= inv;
        }
        for (int64_t r = 0; r < n; ++r) {
          if (r == c) continue;
          const double f = w[r * n + c];
          if (f == 0.0) continue;
          for (int64_t j = 0; j < n; ++j) {
            w[r * n + j] -= f * w[c * n + j];
            y[r * n + j] -= f * y[c * n + j];
          }
        }
      }
    }
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;
using pacl::Pick;

extern "C" {

aclnnStatus aclnnKthvalueGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool keepdim,
                                          aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Kthvalue, "aclnnKthvalueGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_dim_select(b, self, dim, keepdim, valuesOut, indicesOut, Pick::kKth, k,
                                                  pacl::kKthTypes);
                          });
}

aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor* self, aclTensor* valuesOut, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Median, "aclnnMedianGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_all_select(b, self, valuesOut, "valuesOut", Pick::kMedian); });
}

aclnnStatus aclnnMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim, aclTensor* valuesOut,
                                           aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MedianDim, "aclnnMedianDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_dim_select(b, self, dim, keepDim, valuesOut, indicesOut, Pick::kMedian, 0,
                                                  pacl::kMedianTypes);
                          });
}

aclnnStatus aclnnNanMedianGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_NanMedian, "aclnnNanMedianGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_all_select(b, self, out, "out", Pick::kNanMedian); });
}

aclnnStatus aclnnNanMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim, aclTensor* valuesOut,
                                              aclTensor* indicesOut, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_NanMedianDim, "aclnnNanMedianDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_dim_select(b, self, dim, keepDim, valuesOut, indicesOut, Pick::kNanMedian, 0,
                                                  pacl::kMedianTypes);
                          });
}

aclnnStatus aclnnInverseGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Inverse, "aclnnInverseGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_inverse(b, self, out); });
}

}  // extern "C"
