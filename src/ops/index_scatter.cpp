// Scatters: Scatter/ScatterValue/ScatterAdd/ScatterReduce (+Inplace: the element walk), IndexAdd(V2),
// IndexCopy, IndexFill(Tensor), InplacePut, ScatterNd, ScatterNdUpdate, TfScatterAdd (the row walk),
// InplaceMaskedScatter. Plain copies move elements by size in the stored dtype; reductions compute
// in the arithmetic dtype (float16/bfloat16 widened to float32 once, rounded once at the end).
#include <algorithm>
#include <complex>
#include <cstring>

#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_add_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_put.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_scatter_nd_update.h"
#include "aclnnop/aclnn_scatter_reduce.h"
#include "aclnnop/aclnn_tf_scatter_add.h"
#include "core/convert.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;
constexpr DTypeMask kScatterTypes = kAllTypes | kComplexTypes;

int64_t prod(const Dims& d, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t k = from; k < to && k < d.size(); ++k) n *= d[k];
  return n;
}

void check_same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", name, dtype_name(t.dtype), ref_name, dtype_name(ref.dtype));
}

// The scalar converted to the stored dtype, then to `as` (stored or its arithmetic dtype), in out.
void scalar_bytes(const aclScalar& s, const char* name, DType stored, DType as, unsigned char out[16]) {
  if (is_complex(stored)) {
    std::complex<double> v;
    if (s.dtype == DType::kComplex64) {
      std::complex<float> f;
      std::memcpy(&f, s.bytes, sizeof f);
      v = f;
    } else if (s.dtype == DType::kComplex128) {
      std::memcpy(&v, s.bytes, sizeof v);
    } else {
      v = s.to_double();
    }
    if (stored == DType::kComplex64) {
      const std::complex<float> f(static_cast<float>(v.real()), static_cast<float>(v.imag()));
      std::memcpy(out, &f, sizeof f);
    } else {
      std::memcpy(out, &v, sizeof v);
    }
    return;
  }
  if (is_complex(s.dtype))
    invalid("{} has dtype {}: a complex value needs a complex tensor, not {}", name, dtype_name(s.dtype), dtype_name(stored));
  if (!is_compute_dtype(s.dtype)) invalid("{} has dtype {}, which is not supported", name, dtype_name(s.dtype));
  alignas(8) unsigned char tmp[16] = {};
  convert_strided(stored, tmp, 1, s.dtype, s.bytes, 1, 1);
  if (as == stored) std::memcpy(out, tmp, dtype_size(stored));
  else convert_strided(as, out, 1, stored, tmp, 1, 1);
}

// The dtype a scatter computes in: copies stay in the stored dtype, reductions widen 16-bit floats.
DType scatter_dtype(DType stored, bool reduces) {
  if (!reduces || is_complex(stored)) return stored;
  return arithmetic_dtype(stored);
}

// ---- element scatters ---------------------------------------------------------------------------------

struct ElementScatter {
  const aclTensor* self = nullptr;  // selfRef when inplace
  const aclTensor* out = nullptr;   // == self when inplace
  const aclTensor* index = nullptr;
  const aclTensor* src = nullptr;  // or value
  const aclScalar* value = nullptr;
  int64_t dim = 0;
  Reduce reduce = Reduce::kNone;
  bool include_self = true;
};

void plan_element_scatter(OpBuilder& b, const ElementScatter& a) {
  const aclTensor& self = *a.self;
  const aclTensor& out = *a.out;
  const aclTensor& index = *a.index;
  const bool inplace = a.self == a.out;
  const char* self_name = inplace ? "selfRef" : "self";
  check_dtype_in(b.op(), self_name, self.dtype, kScatterTypes);
  check_dtype_in(b.op(), "index", index.dtype, kIndexDTypes);
  if (a.src) check_same_dtype(*a.src, "src", self, self_name);
  if (!inplace) {
    check_same_dtype(out, "out", self, self_name);
    check_shape_equals(out, "out", self.view, "self's shape");
  }
  check_rank(self, self_name, kMaxRank);
  if (index.dim() != self.dim())
    invalid("index has {} dims ({}), expected as many as {} ({})", index.dim(), dims_str(index.view), self_name,
            dims_str(self.view));
  if (a.src && a.src->dim() != self.dim())
    invalid("src has {} dims ({}), expected as many as {} ({})", a.src->dim(), dims_str(a.src->view), self_name,
            dims_str(self.view));
  const int64_t d = wrap_dim(a.dim, self.dim(), "dim");
  for (size_t k = 0; k < index.view.size(); ++k) {
    if (a.src && index.view[k] > a.src->view[k])
      invalid("index has shape {}, src {}: index.size({}) = {} exceeds src.size({})", dims_str(index.view),
              dims_str(a.src->view), k, index.view[k], k);
    if (static_cast<int64_t>(k) != d && index.view[k] > self.view[k])
      invalid("index has shape {}, {} {}: index.size({}) = {} exceeds {}.size({}) = {}", dims_str(index.view),
              self_name, dims_str(self.view), k, index.view[k], self_name, k, self.view[k]);
  }
  if (is_complex(self.dtype) && (a.reduce == Reduce::kMax || a.reduce == Reduce::kMin))
    unsupported("reduce {} is not defined for complex {}", reduce_name(a.reduce), self_name);
  if (self.numel() == 0) return;
  const bool has_index = index.numel() > 0;
  if (inplace && !has_index) return;
  const bool reduces = a.reduce != Reduce::kNone;
  const DType D = scatter_dtype(self.dtype, reduces);
  DensePlan p(b);
  p.separate_outputs();
  const int si = inplace ? -1 : p.input(self, D);
  const int ii = p.input(index, DType::kInt64);
  const int ri = a.src ? p.input(*a.src, D) : -1;
  const int oi = p.output(out, D, inplace ? Access::kReadWrite : Access::kWrite);
  alignas(16) unsigned char value[16] = {};
  if (a.value) scalar_bytes(*a.value, "value", self.dtype, D, value);
  const int64_t numel = self.numel();
  const size_t counts_at = a.reduce == Reduce::kMean ? p.scratch(static_cast<size_t>(numel) * sizeof(int64_t)) : 0;
  const size_t first_at = reduces && !a.include_self ? p.scratch(static_cast<size_t>(numel)) : 0;
  ElementWalk w;
  w.ishape = index.view;
  w.dshape = self.view;
  w.sshape = a.src ? a.src->view : index.view;
  w.dim = d;
  const Reduce r = a.reduce;
  const bool include_self = a.include_self;
  const char* op = b.op().name;
  const int64_t n_idx = index.numel();
  const int64_t size = self.view.empty() ? 1 : self.view[static_cast<size_t>(d)];
  const std::string what = fmt::format("{}.shape[{}]", self_name, d);
  const size_t esize = dtype_size(D);
  p.finish(std::string("index.scatter_elements.") + reduce_name(r) + "." + dtype_name(D), [=](const DenseArgs& args) {
    ElementWalk walk = w;
    walk.idx = args.in<int64_t>(ii);
    check_index_values(op, "index", walk.ishape, walk.idx, n_idx, size, IndexRule::kNonNegative, what);
    void* data = args.ptr(oi);
    if (si >= 0) std::memcpy(data, args.ptr(si), static_cast<size_t>(numel) * esize);
    if (n_idx == 0) return;
    const void* src = ri >= 0 ? args.ptr(ri) : nullptr;
    if (r == Reduce::kNone) {
      scatter_elements(esize, src, value, data, walk);
      return;
    }
    int64_t* counts = nullptr;
    uint8_t* first = nullptr;
    if (r == Reduce::kMean) {
      counts = args.scratch<int64_t>(counts_at);
      std::fill_n(counts, numel, 0);
    }
    if (!include_self) {
      first = args.scratch<uint8_t>(first_at);
      std::fill_n(first, numel, 0);
    }
    scatter_elements_reduce(D, r, src, value, data, walk, counts, first);
    if (counts) finish_mean(D, data, counts, numel, include_self);
  });
}

// ---- row scatters -------------------------------------------------------------------------------------

// Shapes of IndexAdd/IndexCopy: source is self with dim resized to index's length (a 0-d source with a
// 0-d self and a one-element index also works).
void check_index_source(const aclTensor& self, const char* self_name, const aclTensor& index,
                        const aclTensor& source, int64_t d) {
  if (index.dim() > 1) invalid("index has {} dims ({}), expected a 0-d or 1-d tensor", index.dim(), dims_str(index.view));
  if (source.dim() == 0 && self.dim() <= 1) {
    if (index.numel() != 1) invalid("index has {} elements, expected 1 for a 0-d source", index.numel());
    return;
  }
  if (source.dim() != self.dim())
    invalid("source has {} dims ({}), expected as many as {} ({})", source.dim(), dims_str(source.view), self_name,
            dims_str(self.view));
  for (size_t k = 0; k < source.view.size(); ++k) {
    if (static_cast<int64_t>(k) == d) {
      if (source.view[k] != index.numel())
        invalid("source.shape[{}] is {}, expected index's length {}", k, source.view[k], index.numel());
    } else if (source.view[k] != self.view[k]) {
      invalid("source has shape {}, expected {}'s shape {} outside dim {}", dims_str(source.view), self_name,
              dims_str(self.view), d);
    }
  }
}

enum class RowKind { kCopy, kAdd, kFill };

struct RowScatter {
  const aclTensor* self = nullptr;  // the tensor whose rows are written (selfRef when inplace)
  const aclTensor* out = nullptr;   // == self when inplace
  const aclTensor* index = nullptr;
  const aclTensor* source = nullptr;
  RowKind kind = RowKind::kCopy;
  RowWalk walk;         // dst_rows / inner / outer; n and src_rows filled for sources
  int64_t tuple = 0;    // > 0: index holds tuples of this many coordinates (ScatterNd family)
  Dims tuple_shape;     // the dims the tuples address
  IndexRule rule = IndexRule::kNonNegative;
  std::string what;     // names the indexed extent in run-time errors
  const char* index_name = "index";
  const aclScalar* alpha = nullptr;
  const aclScalar* value = nullptr;
  std::vector<int64_t> host_index;  // IndexFillTensor: values known at phase 1
};

void plan_row_scatter(OpBuilder& b, const RowScatter& a) {
  const aclTensor& self = *a.self;
  const aclTensor& out = *a.out;
  const bool inplace = a.self == a.out;
  if (self.numel() == 0) return;
  const bool has_index = a.index ? a.index->numel() > 0 : !a.host_index.empty();
  if (inplace && !has_index) return;
  const bool reduces = a.kind == RowKind::kAdd;
  const DType D = scatter_dtype(self.dtype, reduces);
  DensePlan p(b);
  p.separate_outputs();
  const int si = inplace ? -1 : p.input(self, D);
  const int ii = a.index ? p.input(*a.index, DType::kInt64) : -1;
  const int ri = a.source ? p.input(*a.source, D) : -1;
  const int oi = p.output(out, D, inplace ? Access::kReadWrite : Access::kWrite);
  alignas(16) unsigned char scalar[16] = {};
  if (a.value) scalar_bytes(*a.value, "value", self.dtype, D, scalar);
  if (a.alpha) {
    if (!is_floating(self.dtype) && !is_complex(self.dtype) && (is_floating(a.alpha->dtype) || is_complex(a.alpha->dtype)))
      invalid("alpha has dtype {}, which cannot be cast to the integral dtype {} of self", dtype_name(a.alpha->dtype),
              dtype_name(self.dtype));
    scalar_bytes(*a.alpha, "alpha", arithmetic_dtype(self.dtype), D, scalar);
  }
  const bool has_alpha = a.alpha != nullptr;
  const int64_t n_values = a.index ? a.index->numel() : static_cast<int64_t>(a.host_index.size());
  const int64_t n_rows = a.tuple > 0 ? n_values / a.tuple : n_values;
  const size_t rows_at = a.tuple > 0 ? p.scratch(static_cast<size_t>(n_rows) * sizeof(int64_t)) : 0;
  const size_t host_at = a.index ? 0 : p.scratch(static_cast<size_t>(n_values) * sizeof(int64_t));
  RowWalk w = a.walk;
  w.n = n_rows;
  const int64_t numel = self.numel();
  const size_t esize = dtype_size(D);
  const RowKind kind = a.kind;
  const int64_t tuple = a.tuple;
  const Dims tuple_shape = a.tuple_shape, ishape = a.index ? a.index->view : Dims{n_values};
  const IndexRule rule = a.rule;
  const std::string what = a.what;
  const std::vector<int64_t> host_index = a.host_index;
  const char* op = b.op().name;
  const char* index_name = a.index_name;
  const char* kinds[] = {"copy", "add", "fill"};
  p.finish(std::string("index.scatter_rows.") + kinds[static_cast<int>(kind)] + "." + dtype_name(D),
           [=](const DenseArgs& args) {
             RowWalk walk = w;
             const int64_t* idx;
             if (ii >= 0) {
               idx = args.in<int64_t>(ii);
             } else {
               int64_t* h = args.scratch<int64_t>(host_at);
               std::copy(host_index.begin(), host_index.end(), h);
               idx = h;
             }
             if (tuple > 0) {
               int64_t* rows = args.scratch<int64_t>(rows_at);
               linearize_tuples(op, index_name, ishape, idx, n_rows, tuple, tuple_shape, rule, what.c_str(), rows);
               idx = rows;
             } else if (kind != RowKind::kFill) {
               check_index_values(op, index_name, ishape, idx, n_values, walk.dst_rows, rule, what);
             }
             walk.idx = idx;
             void* data = args.ptr(oi);
             if (si >= 0) std::memcpy(data, args.ptr(si), static_cast<size_t>(numel) * esize);
             switch (kind) {
               case RowKind::kCopy: scatter_rows(esize, args.ptr(ri), data, walk); break;
               case RowKind::kAdd:
                 scatter_rows_reduce(D, Reduce::kAdd, args.ptr(ri), data, walk, has_alpha ? scalar : nullptr);
                 break;
               case RowKind::kFill: fill_rows(esize, scalar, data, walk, rule); break;
             }
           });
}

// A RowScatter along dim d of self (IndexAdd, IndexCopy, IndexFill).
RowWalk dim_walk(const aclTensor& self, int64_t d, int64_t n) {
  const Dims s = self.view.empty() ? Dims{1} : self.view;
  RowWalk w;
  w.outer = prod(s, 0, static_cast<size_t>(d));
  w.dst_rows = s[static_cast<size_t>(d)];
  w.inner = prod(s, static_cast<size_t>(d) + 1, s.size());
  w.src_rows = w.n = n;
  return w;
}

void plan_index_add(OpBuilder& b, const aclTensor* self_arg, int64_t dim, const aclTensor* index_arg,
                    const aclTensor* source_arg, const aclScalar* alpha_arg, const int64_t* mode,
                    const aclTensor* out_arg) {
  RowScatter a;
  a.self = &b.input(self_arg, "self");
  a.index = &b.input(index_arg, "index");
  a.source = &b.input(source_arg, "source");
  a.alpha = &b.scalar(alpha_arg, "alpha");
  a.out = &b.output(out_arg, "out");
  const aclTensor& self = *a.self;
  check_dtype_in(b.op(), "self", self.dtype, kAllTypes);
  check_dtype_in(b.op(), "index", a.index->dtype, kIndexDTypes);
  check_same_dtype(*a.source, "source", self, "self");
  check_same_dtype(*a.out, "out", self, "self");
  check_rank(self, "self", kMaxRank);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_index_source(self, "self", *a.index, *a.source, d);
  check_shape_equals(*a.out, "out", self.view, "self's shape");
  if (mode) {
    if (*mode != 0 && *mode != 1) invalid("mode is {}, expected 0 (high performance) or 1", *mode);
    if (*mode == 0) {
      constexpr DTypeMask fast = dtype_mask({DType::kFloat, DType::kFloat16, DType::kInt32, DType::kInt16, DType::kBFloat16});
      if (self.dim() != 2 || d != 0 || !in_mask(fast, self.dtype))
        invalid("mode 0 needs a 2-d self of float32, float16, int32, int16 or bfloat16 and dim 0 (or -2); got {} "
                "and dim {}",
                self.describe(), dim);
    }
  }
  a.kind = RowKind::kAdd;
  a.walk = dim_walk(self, d, a.index->numel());
  a.what = fmt::format("self.shape[{}]", d);
  plan_row_scatter(b, a);
}

constexpr DTypeMask kIndexCopyTypes = kAllTypes | kComplexTypes | dtype_mask({DType::kUInt32, DType::kUInt64});

void plan_index_copy(OpBuilder& b, aclTensor* self_arg, int64_t dim, const aclTensor* index_arg,
                     const aclTensor* source_arg, aclTensor* out_arg, bool inplace) {
  RowScatter a;
  const char* self_name = "selfRef";
  a.self = inplace ? &b.inout(self_arg, self_name) : &b.input(self_arg, self_name);
  a.index = &b.input(index_arg, "index");
  a.source = &b.input(source_arg, "source");
  a.out = inplace ? a.self : &b.output(out_arg, "outRef");
  const aclTensor& self = *a.self;
  check_dtype_in(b.op(), self_name, self.dtype, kIndexCopyTypes);
  check_dtype_in(b.op(), "index", a.index->dtype, kIndexDTypes);
  check_same_dtype(*a.source, "source", self, self_name);
  if (!inplace) {
    check_same_dtype(*a.out, "outRef", self, self_name);
    check_shape_equals(*a.out, "outRef", self.view, "selfRef's shape");
  }
  check_rank(self, self_name, kMaxRank);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  check_index_source(self, self_name, *a.index, *a.source, d);
  a.kind = RowKind::kCopy;
  a.walk = dim_walk(self, d, a.index->numel());
  a.what = fmt::format("selfRef.shape[{}]", d);
  plan_row_scatter(b, a);
}

void plan_index_fill(OpBuilder& b, aclTensor* self_arg, int64_t dim, const aclTensor* index_arg,
                     const aclIntArray* index_array, const aclScalar* value_arg, const aclTensor* out_arg,
                     bool inplace) {
  RowScatter a;
  const char* self_name = inplace ? "selfRef" : "self";
  a.self = inplace ? &b.inout(self_arg, self_name) : &b.input(self_arg, self_name);
  if (index_arg) a.index = &b.input(index_arg, "index");
  const aclIntArray* arr = index_arg ? nullptr : &b.int_array(index_array, "index");
  a.value = &b.scalar(value_arg, "value");
  a.out = inplace ? a.self : &b.output(out_arg, "out");
  const aclTensor& self = *a.self;
  check_dtype_in(b.op(), self_name, self.dtype, index_arg ? kAllTypes : dtype_mask({DType::kFloat16, DType::kFloat,
                                                                                     DType::kInt32, DType::kInt64,
                                                                                     DType::kBool, DType::kBFloat16}));
  if (a.index) check_dtype_in(b.op(), "index", a.index->dtype, kIndexDTypes);
  if (!inplace) {
    check_same_dtype(*a.out, "out", self, self_name);
    check_shape_equals(*a.out, "out", self.view, "self's shape");
  }
  check_rank(self, self_name, kMaxRank);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  const int64_t size = self.view.empty() ? 1 : self.view[static_cast<size_t>(d)];
  if (arr) {
    for (size_t j = 0; j < arr->values.size(); ++j) {
      const int64_t v = arr->values[j];
      if (v < -size || v >= size)
        invalid("index[{}] is {}, expected a value in [{}, {}) ({}.shape[{}] is {})", j, v, -size, size, self_name, d, size);
    }
    a.host_index = arr->values;
  }
  a.kind = RowKind::kFill;
  a.walk = dim_walk(self, d, a.index ? a.index->numel() : static_cast<int64_t>(arr->values.size()));
  a.rule = IndexRule::kWrap;
  plan_row_scatter(b, a);
}

void plan_put(OpBuilder& b, aclTensor* self_arg, const aclTensor* index_arg, const aclTensor* source_arg,
              bool accumulate) {
  RowScatter a;
  a.self = a.out = &b.inout(self_arg, "selfRef");
  a.index = &b.input(index_arg, "index");
  a.source = &b.input(source_arg, "source");
  const aclTensor& self = *a.self;
  check_dtype_in(b.op(), "selfRef", self.dtype, kScatterTypes);
  check_dtype_in(b.op(), "index", a.index->dtype, kIndexDTypes);
  check_same_dtype(*a.source, "source", self, "selfRef");
  if (a.source->numel() != a.index->numel())
    invalid("source has {} elements, expected as many as index ({})", a.source->numel(), a.index->numel());
  if (self.numel() == 0 && a.index->numel() > 0)
    invalid("selfRef is empty ({}) but index is not ({})", dims_str(self.view), dims_str(a.index->view));
  a.kind = accumulate ? RowKind::kAdd : RowKind::kCopy;
  a.walk.dst_rows = self.numel();
  a.walk.src_rows = a.index->numel();
  a.rule = IndexRule::kWrap;
  a.what = "selfRef.numel()";
  plan_row_scatter(b, a);
}

// ScatterNd / ScatterNdUpdate / TfScatterAdd (nd form): updates = indices.shape[:-1] + var.shape[c:].
void setup_nd(RowScatter& a, const aclTensor& var, const char* var_name, const aclTensor& indices,
              const aclTensor& updates) {
  const int64_t c = indices.view.empty() ? 0 : indices.view.back();
  if (indices.dim() < 1 || c < 1 || c > var.dim())
    invalid("indices has shape {}: indices.shape[-1] must be in [1, {}] (the dims of {} {})", dims_str(indices.view),
            var.dim(), var_name, dims_str(var.view));
  Dims expect(indices.view.begin(), indices.view.end() - 1);
  expect.insert(expect.end(), var.view.begin() + c, var.view.end());
  check_shape_equals(updates, "updates", expect, "indices.shape[:-1] + var.shape[indices.shape[-1]:]");
  a.tuple = c;
  a.index_name = "indices";
  a.tuple_shape.assign(var.view.begin(), var.view.begin() + c);
  a.walk.dst_rows = prod(var.view, 0, static_cast<size_t>(c));
  a.walk.inner = prod(var.view, static_cast<size_t>(c), var.view.size());
  a.walk.src_rows = indices.numel() / c;
  a.what = var_name;
}

void plan_scatter_nd(OpBuilder& b, const aclTensor* data_arg, const aclTensor* indices_arg,
                     const aclTensor* updates_arg, const aclTensor* out_arg) {
  RowScatter a;
  a.self = &b.input(data_arg, "data");
  a.index = &b.input(indices_arg, "indices");
  a.source = &b.input(updates_arg, "updates");
  a.out = &b.output(out_arg, "out");
  constexpr DTypeMask types = dtype_mask({DType::kFloat16, DType::kFloat, DType::kBool, DType::kBFloat16});
  check_dtype_in(b.op(), "data", a.self->dtype, types);
  check_dtype_in(b.op(), "indices", a.index->dtype, kIndexDTypes);
  check_same_dtype(*a.source, "updates", *a.self, "data");
  check_same_dtype(*a.out, "out", *a.self, "data");
  if (a.self->dim() < 1) invalid("data has 0 dims, expected 1 to 8");
  check_rank(*a.self, "data", kMaxRank);
  check_rank(*a.index, "indices", kMaxRank);
  check_shape_equals(*a.out, "out", a.self->view, "data's shape");
  setup_nd(a, *a.self, "data", *a.index, *a.source);
  a.kind = RowKind::kCopy;
  plan_row_scatter(b, a);
}

void plan_scatter_nd_update(OpBuilder& b, aclTensor* var_arg, const aclTensor* indices_arg,
                            const aclTensor* updates_arg) {
  RowScatter a;
  a.self = a.out = &b.inout(var_arg, "varRef");
  a.index = &b.input(indices_arg, "indices");
  a.source = &b.input(updates_arg, "updates");
  constexpr DTypeMask types = dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat, DType::kInt64, DType::kBool,
                                          DType::kInt8, DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kHiFloat8});
  check_dtype_in(b.op(), "varRef", a.self->dtype, types);
  check_dtype_in(b.op(), "indices", a.index->dtype, kIndexDTypes);
  check_same_dtype(*a.source, "updates", *a.self, "varRef");
  if (a.self->dim() < 1) invalid("varRef has 0 dims, expected 1 to 8");
  check_rank(*a.self, "varRef", kMaxRank);
  setup_nd(a, *a.self, "varRef", *a.index, *a.source);
  a.kind = RowKind::kCopy;
  plan_row_scatter(b, a);
}

void plan_tf_scatter_add(OpBuilder& b, aclTensor* var_arg, const aclTensor* indices_arg, const aclTensor* updates_arg) {
  RowScatter a;
  a.self = a.out = &b.inout(var_arg, "varRef");
  a.index = &b.input(indices_arg, "indices");
  a.source = &b.input(updates_arg, "updates");
  const aclTensor& var = *a.self;
  constexpr DTypeMask types = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt32, DType::kInt8,
                                          DType::kUInt8});
  check_dtype_in(b.op(), "varRef", var.dtype, types);
  check_dtype_in(b.op(), "indices", a.index->dtype, kIndexDTypes);
  check_same_dtype(*a.source, "updates", var, "varRef");
  if (var.dim() < 1) invalid("varRef has 0 dims, expected 1 to 8");
  check_rank(var, "varRef", kMaxRank);
  check_rank(*a.index, "indices", kMaxRank);
  if (var.numel() == 0 && a.index->numel() > 0)
    invalid("varRef is empty ({}) but indices is not ({})", dims_str(var.view), dims_str(a.index->view));
  Dims scatter_form = a.index->view;  // tf.scatter_add: updates = indices.shape + var.shape[1:]
  scatter_form.insert(scatter_form.end(), var.view.begin() + 1, var.view.end());
  if (a.source->view == scatter_form) {
    a.walk.dst_rows = var.view[0];
    a.walk.inner = prod(var.view, 1, var.view.size());
    a.walk.src_rows = a.index->numel();
    a.what = "varRef.shape[0]";
    a.index_name = "indices";
  } else {
    const int64_t c = a.index->view.empty() ? 0 : a.index->view.back();
    if (a.index->dim() < 1 || c < 1 || c > var.dim())
      invalid("updates has shape {}, expected indices.shape + varRef.shape[1:] = {} (or the scatter_nd_add form)",
              dims_str(a.source->view), dims_str(scatter_form));
    setup_nd(a, var, "varRef", *a.index, *a.source);
  }
  a.kind = RowKind::kAdd;
  plan_row_scatter(b, a);
}

// ---- InplaceMaskedScatter -------------------------------------------------------------------------------

void plan_masked_scatter(OpBuilder& b, aclTensor* self_arg, const aclTensor* mask_arg, const aclTensor* source_arg) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclTensor& mask = b.input(mask_arg, "mask");
  const aclTensor& source = b.input(source_arg, "source");
  check_dtype_in(b.op(), "selfRef", self.dtype, kAllTypes);
  check_dtype_in(b.op(), "mask", mask.dtype, dtype_mask({DType::kBool, DType::kUInt8}));
  check_same_dtype(source, "source", self, "selfRef");
  check_rank(self, "selfRef", kMaxRank);
  if (mask.dim() > self.dim())
    invalid("mask has {} dims ({}), expected at most as many as selfRef ({})", mask.dim(), dims_str(mask.view),
            dims_str(self.view));
  const size_t shift = self.view.size() - mask.view.size();
  Dims mstrides(self.view.size(), 0);
  const Dims mc = contiguous_strides(mask.view);
  for (size_t k = 0; k < mask.view.size(); ++k) {
    const int64_t m = mask.view[k], s = self.view[k + shift];
    if (m != s && m != 1)
      invalid("mask of shape {} does not broadcast to selfRef's shape {}", dims_str(mask.view), dims_str(self.view));
    mstrides[k + shift] = m == 1 ? 0 : mc[k];
  }
  if (self.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int mi = p.input(mask, DType::kBool);
  const int si = p.input(source, source.dtype);
  const int oi = p.output(self, self.dtype, Access::kReadWrite);
  const Dims shape = self.view;
  const int64_t n_src = source.numel();
  const size_t esize = self.elem_size();
  p.finish(std::string("index.masked_scatter.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const bool* m = a.in<bool>(mi);
    const int64_t n = prod(shape, 0, shape.size());
    auto mask_at = [&](int64_t lin) {
      int64_t off = 0;
      for (size_t k = shape.size(); k-- > 0;) {
        off += (lin % shape[k]) * mstrides[k];
        lin /= shape[k];
      }
      return m[off];
    };
    int64_t count = 0;
    for (int64_t k = 0; k < n; ++k) count += mask_at(k) ? 1 : 0;
    if (count > n_src)
      throw InvalidArgument(fmt::format("aclnnInplaceMaskedScatter: mask has {} true elements but source only {} "
                                        "elements",
                                        count, n_src));
    const char* src = static_cast<const char*>(a.ptr(si));
    char* dst = static_cast<char*>(a.ptr(oi));
    int64_t next = 0;
    for (int64_t k = 0; k < n; ++k)
      if (mask_at(k)) std::memcpy(dst + k * static_cast<int64_t>(esize), src + (next++) * static_cast<int64_t>(esize), esize);
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;
using pacl::Reduce;

namespace {

pacl::ElementScatter element_args(OpBuilder& b, const aclTensor* self, bool inplace, int64_t dim, const aclTensor* index,
                                  const aclTensor* src, const aclScalar* value, const aclTensor* out) {
  pacl::ElementScatter a;
  a.self = inplace ? &b.inout(self, "selfRef") : &b.input(self, "self");
  a.index = &b.input(index, "index");
  if (!value) a.src = &b.input(src, "src");
  else a.value = &b.scalar(value, "value");
  a.out = inplace ? a.self : &b.output(out, "out");
  a.dim = dim;
  return a;
}

}  // namespace

extern "C" {

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                         const aclTensor* src, int64_t reduce, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Scatter, "aclnnScatterGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    auto a = element_args(b, self, false, dim, index, src, nullptr, out);
    a.reduce = pacl::reduce_from_code(reduce, 2, "reduce");
    pacl::plan_element_scatter(b, a);
  });
}

aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                const aclTensor* src, int64_t reduce, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceScatter, "aclnnInplaceScatterGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            auto a = element_args(b, selfRef, true, dim, index, src, nullptr, nullptr);
                            a.reduce = pacl::reduce_from_code(reduce, 2, "reduce");
                            pacl::plan_element_scatter(b, a);
                          });
}

aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                              const aclScalar* value, int64_t reduce, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ScatterValue, "aclnnScatterValueGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            if (!value) throw pacl::NullArgument("argument 'value' is null");
                            auto a = element_args(b, self, false, dim, index, nullptr, value, out);
                            a.reduce = pacl::reduce_from_code(reduce, 2, "reduce");
                            pacl::plan_element_scatter(b, a);
                          });
}

aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                     const aclScalar* value, int64_t reduce, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceScatterValue, "aclnnInplaceScatterValueGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            if (!value) throw pacl::NullArgument("argument 'value' is null");
                            auto a = element_args(b, selfRef, true, dim, index, nullptr, value, nullptr);
                            a.reduce = pacl::reduce_from_code(reduce, 2, "reduce");
                            pacl::plan_element_scatter(b, a);
                          });
}

aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                            const aclTensor* src, aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ScatterAdd, "aclnnScatterAddGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            auto a = element_args(b, self, false, dim, index, src, nullptr, out);
                            a.reduce = Reduce::kAdd;
                            pacl::plan_element_scatter(b, a);
                          });
}

aclnnStatus aclnnScatterReduceGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                               const aclTensor* src, int64_t reduce, bool includeSelf, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ScatterReduce, "aclnnScatterReduceGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            auto a = element_args(b, self, false, dim, index, src, nullptr, out);
                            a.reduce = pacl::reduce_from_code(reduce, 5, "reduce");
                            a.include_self = includeSelf;
                            pacl::plan_element_scatter(b, a);
                          });
}

aclnnStatus aclnnInplaceScatterReduceGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                      const aclTensor* src, int64_t reduce, bool includeSelf,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceScatterReduce, "aclnnInplaceScatterReduceGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            auto a = element_args(b, selfRef, true, dim, index, src, nullptr, nullptr);
                            a.reduce = pacl::reduce_from_code(reduce, 5, "reduce");
                            a.include_self = includeSelf;
                            pacl::plan_element_scatter(b, a);
                          });
}

aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index,
                                          const aclTensor* source, const aclScalar* alpha, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexAdd, "aclnnIndexAddGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index_add(b, self, dim, index, source, alpha, nullptr, out); });
}

aclnnStatus aclnnIndexAddV2GetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index,
                                            const aclTensor* source, const aclScalar* alpha, int64_t mode,
                                            aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexAddV2, "aclnnIndexAddV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index_add(b, self, dim, index, source, alpha, &mode, out); });
}

aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                           const aclTensor* source, aclTensor* outRef, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexCopy, "aclnnIndexCopyGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index_copy(b, selfRef, dim, index, source, outRef, false); });
}

aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                  const aclTensor* source, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceIndexCopy, "aclnnInplaceIndexCopyGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index_copy(b, selfRef, dim, index, source, nullptr, true); });
}

aclnnStatus aclnnIndexFillGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                           const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexFill, "aclnnIndexFillGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            if (!index) throw pacl::NullArgument("argument 'index' is null");
                            pacl::plan_index_fill(b, const_cast<aclTensor*>(self), dim, index, nullptr, value, out,
                                                  false);
                          });
}

aclnnStatus aclnnInplaceIndexFillGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                  const aclScalar* value, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceIndexFill, "aclnnInplaceIndexFillGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            if (!index) throw pacl::NullArgument("argument 'index' is null");
                            pacl::plan_index_fill(b, selfRef, dim, index, nullptr, value, nullptr, true);
                          });
}

aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclIntArray* index,
                                                 const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexFillTensor, "aclnnIndexFillTensorGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_index_fill(b, const_cast<aclTensor*>(self), dim, nullptr, index, value, out,
                                                  false);
                          });
}

aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclIntArray* index,
                                                        const aclScalar* value, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceIndexFillTensor, "aclnnInplaceIndexFillTensorGetWorkspaceSize",
                          workspaceSize, executor, [&](OpBuilder& b) {
                            pacl::plan_index_fill(b, selfRef, dim, nullptr, index, value, nullptr, true);
                          });
}

aclnnStatus aclnnInplacePutGetWorkspaceSize(aclTensor* selfRef, const aclTensor* index, const aclTensor* source,
                                            bool accumulate, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplacePut, "aclnnInplacePutGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_put(b, selfRef, index, source, accumulate); });
}

aclnnStatus aclnnScatterNdGetWorkspaceSize(const aclTensor* data, const aclTensor* indices, const aclTensor* updates,
                                           aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ScatterNd, "aclnnScatterNdGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_scatter_nd(b, data, indices, updates, out); });
}

aclnnStatus aclnnScatterNdUpdateGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices, const aclTensor* updates,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ScatterNdUpdate, "aclnnScatterNdUpdateGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_scatter_nd_update(b, varRef, indices, updates); });
}

aclnnStatus aclnnTfScatterAddGetWorkspaceSize(aclTensor* varRef, const aclTensor* indices, const aclTensor* updates,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TfScatterAdd, "aclnnTfScatterAddGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_tf_scatter_add(b, varRef, indices, updates); });
}

aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                      const aclTensor* source, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceMaskedScatter, "aclnnInplaceMaskedScatterGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) { pacl::plan_masked_scatter(b, selfRef, mask, source); });
}

}  // extern "C"
