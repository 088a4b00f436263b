// Ops whose output size depends on the data: Nonzero, NonzeroV2, Unique, Unique2, UniqueConsecutive,
// UniqueDim. As in CANN, the caller passes outputs sized for the most (a capacity); the kernel writes
// the result packed at the start of the output and then sets the output's view shape to the real
// one (set_view_from_kernel), which the caller reads back with aclGetViewShape after synchronizing.
// A result larger than an output's capacity is a run-time error. Outputs must be contiguous.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique2.h"
#include "aclnnop/aclnn_unique_consecutive.h"
#include "aclnnop/aclnn_unique_dim.h"
#include "core/convert.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;
constexpr int64_t kNoDim = 1000;  // UniqueConsecutive: "no dim", flatten

int64_t prod(const Dims& d, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t k = from; k < to && k < d.size(); ++k) n *= d[k];
  return n;
}

// Calls f(type_tag<S>) with S the storage type of t: the compute dtypes, the wide unsigned ints,
// and complex (compared for equality only).
template <typename F>
void visit_stored(DType t, F&& f) {
  switch (t) {
    case DType::kUInt16: return f(type_tag<uint16_t>{});
    case DType::kUInt32: return f(type_tag<uint32_t>{});
    case DType::kUInt64: return f(type_tag<uint64_t>{});
    case DType::kComplex64: return f(type_tag<std::complex<float>>{});
    case DType::kComplex128: return f(type_tag<std::complex<double>>{});
    default: return visit_dtype(t, f);
  }
}

template <typename S>
struct Key {  // how elements of storage type S compare: NaN is above everything and equal to nothing
  using V = compute_t<S>;
  static V value(const S& s) {
    if constexpr (is_16bit_float_v<S>) return convert_value<float>(s);
    else return s;
  }
  static bool is_nan(const V& v) {
    if constexpr (std::is_floating_point_v<V>) return std::isnan(v);
    else return false;
  }
  static bool less(const S& a, const S& b) {
    if constexpr (std::is_same_v<S, std::complex<float>> || std::is_same_v<S, std::complex<double>>) {
      return false;  // complex values are only compared for equality
    } else {
      const V x = value(a), y = value(b);
      if (is_nan(x)) return false;
      if (is_nan(y)) return true;
      return x < y;
    }
  }
  static bool equal(const S& a, const S& b) {
    const V x = value(a), y = value(b);
    return x == y;  // NaN != NaN, -0 == +0
  }
};

// Checks a capacity output and marks it as one whose view the kernel sets.
void capacity_output(OpBuilder& b, const aclTensor& t, const char* name, DType dtype) {
  if (t.dtype != dtype) invalid("{} has dtype {}, expected {}", name, dtype_name(t.dtype), dtype_name(dtype));
  if (t.numel() > 0 && !t.is_contiguous()) invalid("{} ({}) must be contiguous: the kernel writes its result packed", name, t.describe());
  b.kernel_sets_view(t);
}

[[noreturn]] void over_capacity(const char* op, const char* name, int64_t need, int64_t have) {
  throw InvalidArgument(fmt::format("aclnn{}: the result needs {} elements in {} but it holds only {}", op, need,
                                    name, have));
}

// ---- Nonzero ------------------------------------------------------------------------------------------------

constexpr DTypeMask kNonzeroTypes = kAllTypes | kUnsignedWideTypes;

template <typename S>
bool nonzero(const S& v) {
  if constexpr (std::is_same_v<S, Half> || std::is_same_v<S, BFloat16>) return (v.bits & 0x7fffu) != 0;
  else return v != S(0);
}

void plan_nonzero(OpBuilder& b, const aclTensor* self_arg, aclTensor* out_arg, bool transposed) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kNonzeroTypes);
  check_rank(self, "self", kMaxRank);
  if (out.dim() != 2) invalid("out has {} dims ({}), expected 2", out.dim(), dims_str(out.view));
  const int64_t d = self.dim();
  const int64_t coord_axis = transposed ? 0 : 1;
  if (out.view[static_cast<size_t>(coord_axis)] != d)
    invalid("out has shape {}: out.shape[{}] must be self's number of dims ({})", dims_str(out.view), coord_axis, d);
  capacity_output(b, out, "out", DType::kInt64);
  DensePlan p(b);
  const int s = p.input(self, self.dtype);
  const int o = p.output(out, DType::kInt64);
  aclTensor* out_t = out_arg;
  const Dims shape = self.view;
  const int64_t n = self.numel(), capacity = out.numel();
  const DType t = self.dtype;
  const char* op = b.op().name;
  p.finish(std::string("index.nonzero.") + dtype_name(t), [=](const DenseArgs& a) {
    int64_t count = 0;
    visit_stored(t, [&](auto tag) {
      using S = typename decltype(tag)::type;
      if constexpr (std::is_same_v<S, std::complex<float>> || std::is_same_v<S, std::complex<double>>) {
        throw std::logic_error("nonzero of complex");
      } else {
        const S* x = a.in<S>(s);
        for (int64_t i = 0; i < n; ++i) count += nonzero(x[i]) ? 1 : 0;
        if (count * d > capacity) over_capacity(op, "out", count * d, capacity);
        int64_t* dst = a.out<int64_t>(o);
        Dims c(shape.size(), 0);
        int64_t k = 0;
        for (int64_t i = 0; i < n; ++i) {
          if (nonzero(x[i])) {
            for (int64_t j = 0; j < d; ++j) dst[transposed ? j * count + k : k * d + j] = c[static_cast<size_t>(j)];
            ++k;
          }
          for (size_t j = shape.size(); j-- > 0;) {  // next coordinate
            if (++c[j] < shape[j]) break;
            c[j] = 0;
          }
        }
      }
    });
    set_view_from_kernel(out_t, transposed ? Dims{d, count} : Dims{count, d});
  });
}

// ---- Unique family --------------------------------------------------------------------------------------------

constexpr DTypeMask kUniqueTypes = kAllTypes | kUnsignedWideTypes;

enum class UniqueMode { kSorted, kConsecutive };

struct UniqueArgs {
  const aclTensor* self = nullptr;
  aclTensor* value = nullptr;
  aclTensor* inverse = nullptr;  // nullptr: not returned
  aclTensor* counts = nullptr;   // nullptr: not returned
  UniqueMode mode = UniqueMode::kSorted;
  int64_t dim = -1;  // -1: flattened
  DType index_dtype = DType::kInt64;
  bool inverse_view = false;  // inverseOut is a capacity too: its view becomes [self.shape[dim]]
};

// Groups slices (flattened mode: single elements) along `dim`: slice k holds elements
// (o, k, i) of self seen as [outer, size, inner]. Sorted mode orders slices lexicographically
// (stable); consecutive mode keeps their order and merges only neighbours.
void plan_unique(OpBuilder& b, const UniqueArgs& u) {
  const aclTensor& self = *u.self;
  const Dims shape = self.view.empty() ? Dims{1} : self.view;
  const bool flat = u.dim < 0;
  const int64_t d = flat ? 0 : u.dim;
  const int64_t size = flat ? self.numel() : shape[static_cast<size_t>(d)];
  const int64_t outer = flat ? 1 : prod(shape, 0, static_cast<size_t>(d));
  const int64_t inner = flat ? 1 : prod(shape, static_cast<size_t>(d) + 1, shape.size());
  capacity_output(b, *u.value, "valueOut", self.dtype);
  if (u.counts) capacity_output(b, *u.counts, "countsOut", u.index_dtype);
  DensePlan p(b);
  const int s = p.input(self, self.dtype);
  const int v = p.output(*u.value, self.dtype);
  const int iv = u.inverse ? p.output(*u.inverse, u.index_dtype) : -1;
  const int cv = u.counts ? p.output(*u.counts, u.index_dtype) : -1;
  const size_t perm_at = p.scratch(static_cast<size_t>(size) * sizeof(int64_t));
  const size_t group_at = p.scratch(static_cast<size_t>(size) * sizeof(int64_t));
  aclTensor* value_t = u.value;
  aclTensor* counts_t = u.counts;
  aclTensor* inverse_view_t = u.inverse_view ? u.inverse : nullptr;
  const int64_t value_capacity = u.value->numel(), counts_capacity = u.counts ? u.counts->numel() : 0;
  const Dims vshape_tail = flat ? Dims{} : Dims(shape.begin() + d + 1, shape.end());
  const Dims vshape_head = flat ? Dims{} : Dims(shape.begin(), shape.begin() + d);
  const DType t = self.dtype, it = u.index_dtype;
  const UniqueMode mode = u.mode;
  const char* op = b.op().name;
  const size_t esize = self.elem_size();
  p.finish(std::string("index.unique.") + dtype_name(t), [=](const DenseArgs& a) {
    int64_t* perm = a.scratch<int64_t>(perm_at);
    int64_t* group = a.scratch<int64_t>(group_at);  // group of each slice
    int64_t groups = 0;
    visit_stored(t, [&](auto tag) {
      using S = typename decltype(tag)::type;
      const S* x = a.in<S>(s);
      auto at = [&](int64_t k, int64_t o, int64_t i) -> const S& { return x[(o * size + k) * inner + i]; };
      auto slice_less = [&](int64_t p1, int64_t p2) {
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i) {
            const S& e1 = at(p1, o, i);
            const S& e2 = at(p2, o, i);
            if (Key<S>::less(e1, e2)) return true;
            if (Key<S>::less(e2, e1)) return false;
          }
        return false;
      };
      auto slice_equal = [&](int64_t p1, int64_t p2) {
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t i = 0; i < inner; ++i)
            if (!Key<S>::equal(at(p1, o, i), at(p2, o, i))) return false;
        return true;
      };
      std::iota(perm, perm + size, int64_t{0});
      if (mode == UniqueMode::kSorted) std::stable_sort(perm, perm + size, slice_less);
      for (int64_t j = 0; j < size; ++j) {
        if (j == 0 || !slice_equal(perm[j - 1], perm[j])) ++groups;
        group[perm[j]] = groups - 1;
      }
    });
    const int64_t slice = outer * inner;
    if (groups * slice > value_capacity) over_capacity(op, "valueOut", groups * slice, value_capacity);
    if (cv >= 0 && groups > counts_capacity) over_capacity(op, "countsOut", groups, counts_capacity);
    // valueOut: the first slice of each group (in perm order), laid out as [outer, groups, inner].
    const char* src = static_cast<const char*>(a.ptr(s));
    char* dst = static_cast<char*>(a.ptr(v));
    std::vector<int64_t> counts(static_cast<size_t>(groups), 0);
    int64_t g = -1;
    for (int64_t j = 0; j < size; ++j) {
      const int64_t k = perm[j];
      ++counts[static_cast<size_t>(group[k])];
      if (group[k] == g) continue;
      g = group[k];
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + ((o * groups + g) * inner) * static_cast<int64_t>(esize),
                    src + ((o * size + k) * inner) * static_cast<int64_t>(esize), static_cast<size_t>(inner) * esize);
    }
    auto store = [&](int idx, int64_t pos, int64_t val) {
      if (it == DType::kInt64) a.out<int64_t>(idx)[pos] = val;
      else a.out<int32_t>(idx)[pos] = static_cast<int32_t>(val);
    };
    if (iv >= 0)
      for (int64_t k = 0; k < size; ++k) store(iv, k, group[k]);
    if (cv >= 0)
      for (int64_t j = 0; j < groups; ++j) store(cv, j, counts[static_cast<size_t>(j)]);
    Dims vshape = vshape_head;
    vshape.push_back(groups);
    vshape.insert(vshape.end(), vshape_tail.begin(), vshape_tail.end());
    set_view_from_kernel(value_t, vshape);
    if (counts_t) set_view_from_kernel(counts_t, Dims{groups});
    if (inverse_view_t) set_view_from_kernel(inverse_view_t, Dims{size});
  });
}

void plan_unique_flat(OpBuilder& b, const aclTensor* self_arg, bool return_inverse, bool return_counts,
                      aclTensor* value, aclTensor* inverse, aclTensor* counts, bool with_counts_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  UniqueArgs u;
  u.self = &self;
  u.value = const_cast<aclTensor*>(&b.output(value, "valueOut"));
  const aclTensor& inv = b.output(inverse, "inverseOut");
  const aclTensor* cnt = with_counts_arg ? &b.output(counts, "countsOut") : nullptr;
  check_dtype_in(b.op(), "self", self.dtype, kUniqueTypes);
  check_rank(self, "self", kMaxRank);
  if (u.value->dim() != 1) invalid("valueOut has {} dims ({}), expected 1", u.value->dim(), dims_str(u.value->view));
  const bool want_inverse = return_inverse || (with_counts_arg && return_counts);
  if (want_inverse) {
    if (inv.dtype != DType::kInt64) invalid("inverseOut has dtype {}, expected int64", dtype_name(inv.dtype));
    check_shape_equals(inv, "inverseOut", self.view, "self's shape");
    u.inverse = const_cast<aclTensor*>(&inv);
  }
  if (cnt && return_counts) u.counts = const_cast<aclTensor*>(cnt);
  plan_unique(b, u);
}

constexpr DTypeMask kUniqueConsecutiveTypes = kUniqueTypes | kComplexTypes;

void plan_unique_consecutive(OpBuilder& b, const aclTensor* self_arg, bool return_inverse, bool return_counts,
                             int64_t dim, aclTensor* value, aclTensor* inverse, aclTensor* counts) {
  const aclTensor& self = b.input(self_arg, "self");
  UniqueArgs u;
  u.self = &self;
  u.mode = UniqueMode::kConsecutive;
  u.value = const_cast<aclTensor*>(&b.output(value, "valueOut"));
  const aclTensor& inv = b.output(inverse, "inverseOut");
  const aclTensor& cnt = b.output(counts, "countsOut");
  check_dtype_in(b.op(), "self", self.dtype, kUniqueConsecutiveTypes);
  check_rank(self, "self", kMaxRank);
  constexpr DTypeMask index_types = dtype_mask({DType::kInt32, DType::kInt64});
  check_dtype_in(b.op(), "inverseOut", inv.dtype, index_types);
  check_dtype_in(b.op(), "countsOut", cnt.dtype, index_types);
  if (inv.dtype != cnt.dtype)
    invalid("inverseOut has dtype {} and countsOut {}: they must be the same", dtype_name(inv.dtype), dtype_name(cnt.dtype));
  u.index_dtype = inv.dtype;
  if (dim != kNoDim) {
    if (self.dim() == 0) invalid("dim is {}, but self is 0-d: pass 1000 (no dim)", dim);
    u.dim = wrap_dim(dim, self.dim(), "dim");
  }
  if (return_inverse) {
    const Dims expect = u.dim < 0 ? self.view : Dims{self.view[static_cast<size_t>(u.dim)]};
    check_shape_equals(inv, "inverseOut", expect, u.dim < 0 ? "self's shape" : "[self.shape[dim]]");
    u.inverse = const_cast<aclTensor*>(&inv);
  }
  if (return_counts) u.counts = const_cast<aclTensor*>(&cnt);
  plan_unique(b, u);
}

void plan_unique_dim(OpBuilder& b, const aclTensor* self_arg, bool return_inverse, int64_t dim, aclTensor* value,
                     aclTensor* inverse, aclTensor* counts) {
  const aclTensor& self = b.input(self_arg, "self");
  UniqueArgs u;
  u.self = &self;
  u.value = const_cast<aclTensor*>(&b.output(value, "valueOut"));
  const aclTensor& inv = b.output(inverse, "inverseOut");
  u.counts = const_cast<aclTensor*>(&b.output(counts, "countsOut"));
  check_dtype_in(b.op(), "self", self.dtype, kUniqueTypes);
  if (self.dim() < 1) invalid("self is 0-d, expected 1 to 8 dims");
  check_rank(self, "self", kMaxRank);
  if (u.value->dtype != self.dtype)
    invalid("valueOut has dtype {}, expected the dtype of self ({})", dtype_name(u.value->dtype), dtype_name(self.dtype));
  if (inv.dtype != DType::kInt64) invalid("inverseOut has dtype {}, expected int64", dtype_name(inv.dtype));
  u.dim = wrap_dim(dim, self.dim(), "dim");
  if (return_inverse) {
    if (inv.numel() < self.view[static_cast<size_t>(u.dim)])
      invalid("inverseOut has {} elements, expected at least self.shape[{}] = {}", inv.numel(), u.dim,
              self.view[static_cast<size_t>(u.dim)]);
    if (!inv.is_contiguous()) invalid("inverseOut ({}) must be contiguous", inv.describe());
    b.kernel_sets_view(inv);
    u.inverse = const_cast<aclTensor*>(&inv);
  }
  u.inverse_view = true;
  plan_unique(b, u);
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Nonzero, "aclnnNonzeroGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_nonzero(b, self, out, false); });
}

aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_NonzeroV2, "aclnnNonzeroV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_nonzero(b, self, out, true); });
}

aclnnStatus aclnnUniqueGetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse, aclTensor* valueOut,
                                        aclTensor* inverseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Unique, "aclnnUniqueGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_unique_flat(b, self, returnInverse, false, valueOut, inverseOut, nullptr, false);
  });
}

aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse, bool returnCounts,
                                         aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Unique2, "aclnnUnique2GetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_unique_flat(b, self, returnInverse, returnCounts, valueOut, inverseOut, countsOut, true);
  });
}

aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor* self, bool returnInverse, bool returnCounts,
                                                   int64_t dim, aclTensor* valueOut, aclTensor* inverseOut,
                                                   aclTensor* countsOut, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_UniqueConsecutive, "aclnnUniqueConsecutiveGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_unique_consecutive(b, self, returnInverse, returnCounts, dim, valueOut,
                                                          inverseOut, countsOut);
                          });
}

aclnnStatus aclnnUniqueDimGetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse, int64_t dim,
                                           aclTensor* valueOut, aclTensor* inverseOut, aclTensor* countsOut,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_UniqueDim, "aclnnUniqueDimGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_unique_dim(b, self, returnInverse, dim, valueOut, inverseOut, countsOut);
                          });
}

}  // extern "C"
