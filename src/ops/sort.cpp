// Ordering: Sort, Argsort, Topk, SearchSorted(s). Values are compared in their own type (16-bit
// floats widened to float, exactly), NaN greater than every number as in PyTorch. Sorting orders
// an index array per line of the sorted dim with ties broken by position, so every sort is
// stable (a valid result whether or not `stable` is asked for) and Topk returns sorted values.
// SearchSorted is PyTorch's binary search (NaN queries land at the end).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_searchsorted.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/movement.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// The type a sort compares in: 16-bit floats as float, bool as its byte, the rest as stored.
DType sort_dtype(DType t) {
  if (t == DType::kFloat16 || t == DType::kBFloat16) return DType::kFloat;
  return t;
}

template <typename F>
decltype(auto) visit_sort_type(DType t, F&& f) {
  switch (t) {
    case DType::kBool: case DType::kUInt8: return f(type_tag<uint8_t>{});
    case DType::kInt8: return f(type_tag<int8_t>{});
    case DType::kInt16: return f(type_tag<int16_t>{});
    case DType::kUInt16: return f(type_tag<uint16_t>{});
    case DType::kInt32: return f(type_tag<int32_t>{});
    case DType::kUInt32: return f(type_tag<uint32_t>{});
    case DType::kInt64: return f(type_tag<int64_t>{});
    case DType::kUInt64: return f(type_tag<uint64_t>{});
    case DType::kFloat: return f(type_tag<float>{});
    case DType::kDouble: return f(type_tag<double>{});
    default: break;
  }
  throw std::logic_error("visit_sort_type: not a sortable dtype");
}

// a before b in ascending order, NaN last.
template <typename T>
bool less_nan_last(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return a < b || (!std::isnan(a) && std::isnan(b));
  else return a < b;
}

// Orders the n elements line[0], line[inner], ... : idx[0..k) receives the positions of the first
// k in ascending (descending) order, ties by position.
template <typename T>
void order_line(const T* line, int64_t n, int64_t inner, bool descending, int64_t k, int64_t* idx) {
  for (int64_t j = 0; j < n; ++j) idx[j] = j;
  auto before = [&](int64_t x, int64_t y) {
    const T a = line[x * inner], c = line[y * inner];
    if (descending ? less_nan_last(c, a) : less_nan_last(a, c)) return true;
    if (descending ? less_nan_last(a, c) : less_nan_last(c, a)) return false;
    return x < y;
  };
  if (k < n) std::partial_sort(idx, idx + k, idx + n, before);
  else std::sort(idx, idx + n, before);
}

// Sort-like ops: values (optional) and indices (optional, int64) of the first k of each line of
// self along d.
void plan_order(OpBuilder& b, const aclTensor& self, int64_t d, bool descending, int64_t k, const aclTensor* values,
                const aclTensor* indices, const char* name) {
  const int64_t n = self.dim() ? self.view[static_cast<size_t>(d)] : 1;
  if ((values ? values->numel() : indices->numel()) == 0) return;
  int64_t outer = 1, inner = 1;
  for (int64_t j = 0; j < self.dim(); ++j)
    if (j < d) outer *= self.view[static_cast<size_t>(j)];
    else if (j > d) inner *= self.view[static_cast<size_t>(j)];
  const DType ct = sort_dtype(self.dtype);
  DensePlan p(b);
  p.separate_outputs();
  const int src = p.input(self, ct);
  const int val = values ? p.output(*values, ct) : -1;
  const int ind = indices ? p.output(*indices, DType::kInt64) : -1;
  const size_t per_thread = static_cast<size_t>(n) * sizeof(int64_t);
  const size_t scratch = p.scratch(per_thread * static_cast<size_t>(max_threads()));
  p.finish(fmt::format("{}.{}", name, dtype_name(self.dtype)), [=](const DenseArgs& a) {
    visit_sort_type(ct, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = a.in<T>(src);
      T* v = val >= 0 ? a.out<T>(val) : nullptr;
      int64_t* ix = ind >= 0 ? a.out<int64_t>(ind) : nullptr;
      parallel_for(outer * inner, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t from, int64_t to, int t) {
        int64_t* idx = reinterpret_cast<int64_t*>(a.scratch<char>(scratch) + per_thread * static_cast<size_t>(t));
        for (int64_t line = from; line < to; ++line) {
          const int64_t o = line / inner, i = line % inner;
          const T* in = x + o * n * inner + i;
          order_line(in, n, inner, descending, k, idx);
          const int64_t base = o * k * inner + i;
          for (int64_t j = 0; j < k; ++j) {
            if (v) v[base + j * inner] = in[idx[j] * inner];
            if (ix) ix[base + j * inner] = idx[j];
          }
        }
      });
    });
  });
}

constexpr DTypeMask kSortTypes =
    dtype_mask({DType::kBFloat16, DType::kFloat16, DType::kFloat, DType::kDouble, DType::kInt8, DType::kInt16,
                DType::kInt32, DType::kInt64, DType::kUInt8, DType::kUInt16, DType::kUInt32, DType::kUInt64, DType::kBool});

void plan_sort(OpBuilder& b, const aclTensor* self_arg, bool stable, int64_t dim, bool descending,
               const aclTensor* values_arg, const aclTensor* indices_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& values = b.output(values_arg, "valuesOut");
  const aclTensor& indices = b.output(indices_arg, "indicesOut");
  check_dtype_in(b.op(), "self", self.dtype, kSortTypes);
  check_same_dtype(values, "valuesOut", self, "self");
  if (indices.dtype != DType::kInt64) invalid("indicesOut has dtype {}, expected int64", dtype_name(indices.dtype));
  check_rank_between(self, "self", 0, 8);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_shape_equals(values, "valuesOut", self.view, "the shape of self");
  check_shape_equals(indices, "indicesOut", self.view, "the shape of self");
  const int64_t n = self.dim() ? self.view[static_cast<size_t>(d)] : 1;
  plan_order(b, self, d, descending, n, &values, &indices, "sort");
}

void plan_argsort(OpBuilder& b, const aclTensor* self_arg, int64_t dim, bool descending, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kSortTypes);
  if (out.dtype != DType::kInt64) invalid("out has dtype {}, expected int64", dtype_name(out.dtype));
  check_rank_between(self, "self", 0, 8);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_shape_equals(out, "out", self.view, "the shape of self");
  const int64_t n = self.dim() ? self.view[static_cast<size_t>(d)] : 1;
  plan_order(b, self, d, descending, n, nullptr, &out, "argsort");
}

constexpr DTypeMask kTopkTypes = kSortTypes & ~dtype_mask({DType::kBool});

void plan_topk(OpBuilder& b, const aclTensor* self_arg, int64_t k, int64_t dim, bool largest, bool sorted,
               const aclTensor* values_arg, const aclTensor* indices_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& values = b.output(values_arg, "valuesOut");
  const aclTensor& indices = b.output(indices_arg, "indicesOut");
  check_dtype_in(b.op(), "self", self.dtype, kTopkTypes);
  check_same_dtype(values, "valuesOut", self, "self");
  if (indices.dtype != DType::kInt64) invalid("indicesOut has dtype {}, expected int64", dtype_name(indices.dtype));
  check_rank_between(self, "self", 0, 8);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  const int64_t n = self.dim() ? self.view[static_cast<size_t>(d)] : 1;
  if (k < 0 || k > n) invalid("k is {}, expected k in [0, {}] (the size of self's dim {})", k, n, d);
  Dims shape = self.view;
  if (self.dim()) shape[static_cast<size_t>(d)] = k;
  check_shape_equals(values, "valuesOut", shape, "self's shape with k in dim");
  check_shape_equals(indices, "indicesOut", shape, "self's shape with k in dim");
  plan_order(b, self, d, largest, self.dim() ? k : 1, &values, &indices, "topk");
}

// ---- SearchSorted ---------------------------------------------------------------------------

constexpr DTypeMask kSearchTypes = dtype_mask({DType::kDouble, DType::kFloat, DType::kFloat16, DType::kUInt8, DType::kInt8,
                                               DType::kInt16, DType::kInt32, DType::kInt64});

// PyTorch's bounds: first j with !(seq[j] < x) (left) or !(seq[j] <= x) (right); NaN x gives n.
template <typename T>
int64_t insertion_point(const T* seq, const int64_t* sorter, int64_t n, T x, bool right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const T v = seq[sorter ? sorter[mid] : mid];
    if (right ? !(v > x) : !(v >= x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

struct SearchArgs {
  const aclTensor* seq;
  const aclTensor* self;      // or null: the scalar
  const aclScalar* scalar;
  const aclTensor* sorter;    // optional
  const aclTensor* out;
};

void plan_search(OpBuilder& b, const SearchArgs& s, bool out_int32, bool right) {
  const aclTensor& seq = *s.seq;
  const aclTensor& out = *s.out;
  check_dtype_in(b.op(), "sortedSequence", seq.dtype, kSearchTypes);
  const DType self_t = s.self ? s.self->dtype : s.scalar->dtype;
  check_dtype_in(b.op(), "self", self_t, kSearchTypes);
  const DType want_out = out_int32 ? DType::kInt32 : DType::kInt64;
  if (out.dtype != want_out)
    invalid("out has dtype {}, expected {} (outInt32 is {})", dtype_name(out.dtype), dtype_name(want_out), out_int32);
  DType common = promote(seq.dtype, self_t);
  if (common == DType::kUndefined)
    invalid("sortedSequence dtype {} and self dtype {} have no common dtype", dtype_name(seq.dtype), dtype_name(self_t));
  common = arithmetic_dtype(common);
  check_rank_between(seq, "sortedSequence", 1, 8);
  if (s.sorter) {
    if (s.sorter->dtype != DType::kInt64) invalid("sorter has dtype {}, expected int64", dtype_name(s.sorter->dtype));
    check_shape_equals(*s.sorter, "sorter", seq.view, "the shape of sortedSequence");
  }
  const int64_t n = seq.view.back();
  int64_t rows = 1, per_row = 1;  // queries: [rows, per_row], row r searched in sequence row r (or the only one)
  if (s.self) {
    const aclTensor& self = *s.self;
    check_rank_between(self, "self", 0, 8);
    check_shape_equals(out, "out", self.view, "the shape of self");
    if (seq.dim() > 1) {
      const Dims lead(seq.view.begin(), seq.view.end() - 1);
      if (self.dim() != seq.dim() || Dims(self.view.begin(), self.view.end() - 1) != lead)
        invalid("self has shape {}, expected the leading dims {} of sortedSequence {} (and a last dim of any size)",
                dims_str(self.view), dims_str(lead), dims_str(seq.view));
      per_row = self.view.back();
      rows = self.numel() / std::max<int64_t>(per_row, 1);
      if (per_row == 0) rows = 0;
    } else {
      per_row = self.numel();
    }
  } else {
    if (seq.dim() != 1) invalid("sortedSequence has {} dims ({}), expected 1 for a scalar self", seq.dim(), dims_str(seq.view));
    if (out.numel() != 1 || out.dim() > 1) invalid("out has shape {}, expected [1] (or a 0-d tensor)", dims_str(out.view));
  }
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int sq = p.input(seq, common);
  const int q = s.self ? p.input(*s.self, common) : -1;
  const int so = s.sorter ? p.input(*s.sorter, DType::kInt64) : -1;
  const int o = p.output(out, DType::kInt64);
  const bool multi = seq.dim() > 1;
  std::array<unsigned char, 16> scalar{};
  if (s.scalar) {
    visit_arithmetic<TypeSet::kNumeric>(common, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = scalar_value<T>(*s.scalar);
      std::memcpy(scalar.data(), &v, sizeof v);
    });
  }
  const int64_t seq_rows = seq.numel() / std::max<int64_t>(n, 1);
  p.finish(fmt::format("searchsorted.{}", dtype_name(common)), [=](const DenseArgs& a) {
    visit_arithmetic<TypeSet::kNumeric>(common, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* sv = a.in<T>(sq);
      const int64_t* srt = so >= 0 ? a.in<int64_t>(so) : nullptr;
      if (srt)
        for (int64_t i = 0; i < seq_rows * n; ++i)
          if (srt[i] < 0 || srt[i] >= n) invalid("sorter[{}] is {}, expected an index in [0, {})", i, srt[i], n);
      int64_t* out_p = a.out<int64_t>(o);
      if (q < 0) {
        T x;
        std::memcpy(&x, scalar.data(), sizeof x);
        out_p[0] = insertion_point(sv, srt, n, x, right);
        return;
      }
      const T* xv = a.in<T>(q);
      parallel_for(rows * per_row, 4096, [&](int64_t from, int64_t to, int) {
        for (int64_t i = from; i < to; ++i) {
          const int64_t r = multi ? i / per_row : 0;
          out_p[i] = insertion_point(sv + r * n, srt ? srt + r * n : nullptr, n, xv[i], right);
        }
      });
    });
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim, bool descending,
                                                 aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Sort, "aclnnSortGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_sort(b, self, stable, dim, descending, valuesOut, indicesOut);
  });
}

extern "C" aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Argsort, "aclnnArgsortGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_argsort(b, self, dim, descending, out); });
}

extern "C" aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest,
                                                 bool sorted, aclTensor* valuesOut, aclTensor* indicesOut,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Topk, "aclnnTopkGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_topk(b, self, k, dim, largest, sorted, valuesOut, indicesOut);
  });
}

extern "C" aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor* sortedSequence, const aclTensor* self,
                                                         bool outInt32, bool right, const aclTensor* sorter,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SearchSorted, "aclnnSearchSortedGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::SearchArgs a{&b.input(sortedSequence, "sortedSequence"), &b.input(self, "self"),
                                               nullptr, sorter ? &b.input(sorter, "sorter") : nullptr,
                                               &b.output(out, "out")};
                            pacl::plan_search(b, a, outInt32, right);
                          });
}

extern "C" aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor* sortedSequence, const aclScalar* self,
                                                          const bool outInt32, const bool right,
                                                          const aclTensor* sorter, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SearchSorteds, "aclnnSearchSortedsGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::SearchArgs a{&b.input(sortedSequence, "sortedSequence"), nullptr,
                                               &b.scalar(self, "self"), sorter ? &b.input(sorter, "sorter") : nullptr,
                                               &b.output(out, "out")};
                            pacl::plan_search(b, a, outInt32, right);
                          });
}
