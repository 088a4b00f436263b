// Advanced indexing: Index (out = self[indices]) and IndexPutImpl (self[indices] = / += values),
// with PyTorch's rules. The list holds one entry per leading dim of self: an empty tensor is a full
// slice, an integer tensor picks coordinates of one dim, a bool tensor of rank m is a mask over m
// dims (it becomes m coordinate lists of its true positions). The index tensors broadcast to one
// shape B. When the indexed dims are adjacent, the result is self's shape with them replaced by B;
// otherwise B comes first, followed by every sliced dim. The result is walked as rows
// [A, B, Cm] x tail: A = leading sliced dims, Cm = sliced dims among the indexed ones (only when
// they are not adjacent), tail = the trailing sliced dims (contiguous in self, moved as a block).
#include <algorithm>
#include <cstring>

#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "core/convert.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;

int64_t prod(const Dims& d) {
  int64_t n = 1;
  for (int64_t x : d) n *= x;
  return n;
}

// Broadcast of two shapes (right-aligned); false when they do not broadcast.
bool broadcast_into(Dims* acc, const Dims& s) {
  const size_t n = std::max(acc->size(), s.size());
  Dims r(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - acc->size() ? 1 : (*acc)[i - (n - acc->size())];
    const int64_t y = i < n - s.size() ? 1 : s[i - (n - s.size())];
    if (x != y && x != 1 && y != 1) return false;
    r[i] = x == 1 ? y : x;
  }
  *acc = r;
  return true;
}

// Element strides of a shape right-aligned into B (0 where it broadcasts).
Dims strides_in(const Dims& shape, const Dims& b) {
  Dims st(b.size(), 0);
  const Dims c = contiguous_strides(shape);
  const size_t shift = b.size() - shape.size();
  for (size_t k = 0; k < shape.size(); ++k) st[k + shift] = shape[k] == 1 ? 0 : c[k];
  return st;
}

struct Entry {
  int operand = -1;     // DensePlan operand (int64 or bool)
  bool is_bool = false;
  int64_t first_dim = 0, ndims = 1;
  Dims shape;           // the index tensor's shape
};

// The phase-1 analysis shared by Index and IndexPutImpl.
struct Layout {
  Dims self_shape, self_strides;  // self dense
  std::vector<Entry> entries;
  Dims int_b;            // broadcast of the integer entries' shapes
  bool has_bool = false;
  Dims a_dims, cm_dims, tail_dims;
  std::vector<int64_t> cm_self_dims;  // self dim of each Cm dim
  int64_t a_stride = 0;  // self elements per step of A (A are self's leading dims)
  int64_t tail = 1;
  int64_t max_b = 0;     // bound on numel(B) for scratch
  int64_t mask_coords = 0;  // int64 scratch for the masks' coordinates
};

Layout analyse(OpBuilder& b, DensePlan& p, const aclTensor& self, const char* self_name,
               const std::vector<const aclTensor*>& list) {
  Layout l;
  l.self_shape = self.view;
  l.self_strides = contiguous_strides(self.view);
  const int64_t rank = self.dim();
  int64_t pos = 0;
  std::vector<int64_t> indexed;  // self dims covered by defined entries
  for (size_t i = 0; i < list.size(); ++i) {
    const aclTensor& t = *list[i];
    const bool is_bool = t.dtype == DType::kBool;
    if (!is_bool && !in_mask(kIndexDTypes, t.dtype))
      invalid("indices[{}] has dtype {}, expected int32, int64 or bool", i, dtype_name(t.dtype));
    const int64_t covers = is_bool && t.numel() > 0 ? std::max<int64_t>(t.dim(), 1) : 1;
    if (pos + covers > rank)
      invalid("indices has {} entries covering {} dims, but {} has only {} ({})", list.size(), pos + covers, self_name,
              rank, dims_str(self.view));
    if (t.numel() > 0) {  // an empty tensor stands for a full slice
      check_rank(t, "indices", kMaxRank);
      Entry e;
      e.is_bool = is_bool;
      e.first_dim = pos;
      e.ndims = covers;
      e.shape = t.view;
      if (is_bool) {
        for (int64_t k = 0; k < t.dim(); ++k)
          if (t.view[static_cast<size_t>(k)] != self.view[static_cast<size_t>(pos + k)])
            invalid("indices[{}] is a bool mask of shape {}, expected the shape of {} dims {}..{} ({})", i,
                    dims_str(t.view), self_name, pos, pos + t.dim() - 1,
                    dims_str(Dims(self.view.begin() + pos, self.view.begin() + pos + t.dim())));
        e.operand = p.input(t, DType::kBool);
        l.has_bool = true;
        l.mask_coords += t.numel() * covers;
      } else {
        e.operand = p.input(t, DType::kInt64);
        if (!broadcast_into(&l.int_b, t.view))
          invalid("indices[{}] of shape {} does not broadcast with the other indices ({})", i, dims_str(t.view),
                  dims_str(l.int_b));
      }
      for (int64_t k = 0; k < covers; ++k) indexed.push_back(pos + k);
      l.entries.push_back(e);
    }
    pos += covers;
  }
  if (l.entries.empty()) invalid("indices holds no index tensor (all {} entries are empty)", list.size());
  const int64_t first = indexed.front(), last = indexed.back();
  const bool adjacent = last - first + 1 == static_cast<int64_t>(indexed.size());
  for (int64_t d = 0; d < rank; ++d) {
    const bool is_indexed = std::find(indexed.begin(), indexed.end(), d) != indexed.end();
    if (is_indexed) continue;
    const int64_t size = self.view[static_cast<size_t>(d)];
    if (d > last) {
      l.tail_dims.push_back(size);
    } else if (adjacent && d < first) {
      l.a_dims.push_back(size);
    } else {
      l.cm_dims.push_back(size);
      l.cm_self_dims.push_back(d);
    }
  }
  l.tail = prod(l.tail_dims);
  l.a_stride = adjacent ? prod(Dims(self.view.begin() + first, self.view.end())) : 0;
  int64_t max_mask = 1;
  for (const Entry& e : l.entries)
    if (e.is_bool) max_mask = std::max(max_mask, prod(e.shape));
  l.max_b = std::max<int64_t>(prod(l.int_b), 1) * max_mask;
  (void)b;
  return l;
}

// The result shape for index shape B.
Dims result_shape(const Layout& l, const Dims& bshape) {
  Dims r = l.a_dims;
  r.insert(r.end(), bshape.begin(), bshape.end());
  r.insert(r.end(), l.cm_dims.begin(), l.cm_dims.end());
  r.insert(r.end(), l.tail_dims.begin(), l.tail_dims.end());
  return r;
}

// Run time: B and the self offset of every position of B (off), the Cm offsets (cm_off).
// Returns B's shape.
Dims compute_offsets(const char* op, const Layout& l, const DenseArgs& a, int64_t* coords, int64_t* off,
                     int64_t* cm_off) {
  Dims bshape = l.int_b;
  std::vector<const int64_t*> mask_coord(l.entries.size(), nullptr);
  std::vector<int64_t> mask_count(l.entries.size(), 0);
  int64_t* next = coords;
  for (size_t e = 0; e < l.entries.size(); ++e) {
    const Entry& en = l.entries[e];
    if (!en.is_bool) continue;
    const bool* m = a.in<bool>(en.operand);
    const int64_t n = prod(en.shape);
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += m[i] ? 1 : 0;
    // coordinates, [ndims][count]
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (!m[i]) continue;
      int64_t r = i;
      for (int64_t j = en.ndims - 1; j >= 0; --j) {
        const int64_t s = en.shape.empty() ? 1 : en.shape[static_cast<size_t>(j)];
        next[j * count + k] = r % s;
        r /= s;
      }
      ++k;
    }
    mask_coord[e] = next;
    mask_count[e] = count;
    next += count * en.ndims;
    if (!broadcast_into(&bshape, Dims{count}))
      throw InvalidArgument(fmt::format("aclnn{}: a bool mask selects {} elements, which does not broadcast with the "
                                        "other indices ({})",
                                        op, count, dims_str(l.int_b)));
  }
  const int64_t nb = prod(bshape);
  std::vector<Dims> st(l.entries.size());
  for (size_t e = 0; e < l.entries.size(); ++e)
    st[e] = strides_in(l.entries[e].is_bool ? Dims{mask_count[e]} : l.entries[e].shape, bshape);
  Dims c(bshape.size(), 0);
  std::vector<int64_t> epos(l.entries.size(), 0);
  for (int64_t bi = 0; bi < nb; ++bi) {
    int64_t o = 0;
    for (size_t e = 0; e < l.entries.size(); ++e) {
      const Entry& en = l.entries[e];
      int64_t q = 0;
      for (size_t k = 0; k < c.size(); ++k) q += c[k] * st[e][k];
      if (en.is_bool) {
        for (int64_t j = 0; j < en.ndims; ++j)
          o += mask_coord[e][j * mask_count[e] + q] * l.self_strides[static_cast<size_t>(en.first_dim + j)];
      } else {
        const int64_t v = a.in<int64_t>(en.operand)[q];
        const int64_t size = l.self_shape[static_cast<size_t>(en.first_dim)];
        if (v < -size || v >= size)
          throw InvalidArgument(fmt::format("aclnn{}: an index for dim {} is {}, expected a value in [{}, {}) (self.shape[{}] "
                                            "is {})",
                                            op, en.first_dim, v, -size, size, en.first_dim, size));
        o += wrap_index(v, size) * l.self_strides[static_cast<size_t>(en.first_dim)];
      }
    }
    off[bi] = o;
    for (size_t k = c.size(); k-- > 0;) {
      if (++c[k] < bshape[k]) break;
      c[k] = 0;
    }
  }
  // Cm offsets
  const int64_t ncm = prod(l.cm_dims);
  Dims cc(l.cm_dims.size(), 0);
  for (int64_t i = 0; i < ncm; ++i) {
    int64_t o = 0;
    for (size_t k = 0; k < cc.size(); ++k) o += cc[k] * l.self_strides[static_cast<size_t>(l.cm_self_dims[k])];
    cm_off[i] = o;
    for (size_t k = cc.size(); k-- > 0;) {
      if (++cc[k] < l.cm_dims[k]) break;
      cc[k] = 0;
    }
  }
  return bshape;
}

// Calls fn(row, self_offset) for every result row [A, B, Cm] in order.
template <typename Fn>
void for_rows(const Layout& l, int64_t nb, const int64_t* off, const int64_t* cm_off, Fn&& fn) {
  const int64_t na = prod(l.a_dims), ncm = prod(l.cm_dims);
  int64_t row = 0;
  for (int64_t ai = 0; ai < na; ++ai)
    for (int64_t bi = 0; bi < nb; ++bi)
      for (int64_t ci = 0; ci < ncm; ++ci) fn(row++, ai * l.a_stride + off[bi] + cm_off[ci]);
}

constexpr DTypeMask kIndexTypes = kAllTypes | dtype_mask({DType::kComplex64});

void plan_index(OpBuilder& b, const aclTensor* self_arg, const aclTensorList* indices_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const std::vector<const aclTensor*> list = b.input_list(indices_arg, "indices");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kIndexTypes);
  if (out.dtype != self.dtype)
    invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  if (self.dim() < 1) invalid("self is 0-d, expected 1 to 8 dims");
  check_rank(self, "self", kMaxRank);
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, self.dtype);
  const Layout l = analyse(b, p, self, "self", list);
  const Dims r_static = result_shape(l, l.int_b);
  if (!l.has_bool) {
    check_shape_equals(out, "out", r_static, "self[indices]'s shape");
  } else if (out.dim() != static_cast<int64_t>(result_shape(l, Dims(std::max<size_t>(l.int_b.size(), 1), 1)).size())) {
    invalid("out has {} dims ({}), expected {} for self[indices]", out.dim(), dims_str(out.view),
            result_shape(l, Dims(std::max<size_t>(l.int_b.size(), 1), 1)).size());
  }
  if (out.numel() == 0 && !l.has_bool) return;
  const int o = p.output(out, out.dtype);
  const size_t coords_at = p.scratch(static_cast<size_t>(l.mask_coords) * sizeof(int64_t));
  const size_t off_at = p.scratch(static_cast<size_t>(l.max_b) * sizeof(int64_t));
  const size_t cm_at = p.scratch(static_cast<size_t>(prod(l.cm_dims)) * sizeof(int64_t));
  const size_t esize = self.elem_size();
  const Dims out_shape = out.view;
  p.finish(std::string("index.index.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    int64_t* off = a.scratch<int64_t>(off_at);
    int64_t* cm_off = a.scratch<int64_t>(cm_at);
    const Dims bshape = compute_offsets("Index", l, a, a.scratch<int64_t>(coords_at), off, cm_off);
    const Dims r = result_shape(l, bshape);
    if (r != out_shape)
      throw InvalidArgument(fmt::format("aclnnIndex: self[indices] has shape {} but out has {}", dims_str(r),
                                        dims_str(out_shape)));
    const char* src = static_cast<const char*>(a.ptr(s));
    char* dst = static_cast<char*>(a.ptr(o));
    const int64_t row_bytes = l.tail * static_cast<int64_t>(esize);
    for_rows(l, prod(bshape), off, cm_off, [&](int64_t row, int64_t so) {
      std::memcpy(dst + row * row_bytes, src + so * static_cast<int64_t>(esize), static_cast<size_t>(row_bytes));
    });
  });
}

constexpr DTypeMask kIndexPutTypes = kAllTypes;

void plan_index_put(OpBuilder& b, aclTensor* self_arg, const aclTensorList* indices_arg, const aclTensor* values_arg,
                    bool accumulate) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const std::vector<const aclTensor*> list = b.input_list(indices_arg, "indices");
  const aclTensor& values = b.input(values_arg, "values");
  check_dtype_in(b.op(), "selfRef", self.dtype, kIndexPutTypes);
  if (values.dtype != self.dtype)
    invalid("values has dtype {}, expected the dtype of selfRef ({})", dtype_name(values.dtype), dtype_name(self.dtype));
  if (self.dim() < 1) invalid("selfRef is 0-d, expected 1 to 8 dims");
  check_rank(self, "selfRef", kMaxRank);
  check_rank(values, "values", kMaxRank);
  if (self.numel() == 0) return;
  const DType D = accumulate ? arithmetic_dtype(self.dtype) : self.dtype;
  DensePlan p(b);
  p.separate_outputs();
  const Layout l = analyse(b, p, self, "selfRef", list);
  const int v = p.strided(values);
  const int o = p.output(self, D, Access::kReadWrite);
  if (!l.has_bool) {
    Dims r = result_shape(l, l.int_b), tmp = r;
    if (!broadcast_into(&tmp, values.view) || tmp != r)
      invalid("values of shape {} does not broadcast to selfRef[indices]'s shape {}", dims_str(values.view), dims_str(r));
    if (prod(r) == 0) return;
  }
  const int64_t max_r = prod(l.a_dims) * l.max_b * prod(l.cm_dims) * l.tail;
  const size_t coords_at = p.scratch(static_cast<size_t>(l.mask_coords) * sizeof(int64_t));
  const size_t off_at = p.scratch(static_cast<size_t>(l.max_b) * sizeof(int64_t));
  const size_t cm_at = p.scratch(static_cast<size_t>(prod(l.cm_dims)) * sizeof(int64_t));
  const size_t vals_at = p.scratch(static_cast<size_t>(max_r) * dtype_size(D));
  const Dims vshape = values.view, vstrides = values.strides;
  const DType vt = values.dtype;
  p.finish(std::string("index.index_put.") + (accumulate ? "add." : "copy.") + dtype_name(D), [=](const DenseArgs& a) {
    int64_t* off = a.scratch<int64_t>(off_at);
    int64_t* cm_off = a.scratch<int64_t>(cm_at);
    const Dims bshape = compute_offsets("IndexPutImpl", l, a, a.scratch<int64_t>(coords_at), off, cm_off);
    const Dims r = result_shape(l, bshape);
    Dims tmp = r;
    if (!broadcast_into(&tmp, vshape) || tmp != r)
      throw InvalidArgument(fmt::format("aclnnIndexPutImpl: values of shape {} does not broadcast to selfRef[indices]'s "
                                        "shape {}",
                                        dims_str(vshape), dims_str(r)));
    // values broadcast to the result shape, dense, in D
    Dims bst(r.size(), 0);
    const size_t shift = r.size() - vshape.size();
    for (size_t k = 0; k < vshape.size(); ++k) bst[k + shift] = vshape[k] == 1 ? 0 : vstrides[k];
    void* vals = a.scratch<void>(vals_at);
    copy_strided(r, D, vals, contiguous_strides(r), vt, a.ptr(v), bst);
    char* dst = static_cast<char*>(a.ptr(o));
    const char* src = static_cast<const char*>(vals);
    const size_t es = dtype_size(D);
    const int64_t tail = l.tail;
    for_rows(l, prod(bshape), off, cm_off, [&](int64_t row, int64_t so) {
      void* d = dst + so * static_cast<int64_t>(es);
      const void* sp = src + row * tail * static_cast<int64_t>(es);
      if (accumulate) accumulate_into(D, d, sp, tail);
      else std::memcpy(d, sp, static_cast<size_t>(tail) * es);
    });
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor* self, const aclTensorList* indices, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Index, "aclnnIndexGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index(b, self, indices, out); });
}

aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices, const aclTensor* values,
                                              const bool accumulate, const bool unsafe, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_IndexPutImpl, "aclnnIndexPutImplGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_index_put(b, selfRef, indices, values, accumulate); });
}

}  // extern "C"
