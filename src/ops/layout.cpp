// Layout ops, each a strided view of self made dense (one piece), or a few pieces:
//   Slice / SliceV2  offset start*s, stride step*s         Flip     offset (n-1)*s, stride -s
//   Flatten          self's view into out's dense strides  Expand   stride 0 on broadcast dims
//   Repeat           out as [r0, s0, r1, s1, ...], source strides [0, st0, 0, st1, ...]
//   RepeatInterleave out as [..., s_d, r, ...], source strides [..., st_d, 0, ...]
//   Roll             two affine intervals per rolled dim   Diag / DiagFlat  zero + a diagonal view
//   ChannelShuffle   self as [N, g, C/g, ...] read as [N, C/g, g, ...]
//   ConfusionTranspose  reshape (of a dense copy) and permute   InplaceFillDiagonal  fills of diagonal views
// RepeatInterleave with a repeats tensor reads its counts at run time.
#include <cmath>

#include "aclnnop/aclnn_channel_shuffle.h"
#include "aclnnop/aclnn_confusion_transpose.h"
#include "aclnnop/aclnn_diag.h"
#include "aclnnop/aclnn_diag_flat.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_fill_diagonal.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"

namespace pacl {
namespace {

// One piece: out (dense) = the view (shape, strides, offset) of self.
void plan_view(OpBuilder& b, const aclTensor& self, const aclTensor& out, const Dims& shape, const Dims& src_strides,
               int64_t src_offset, const Dims& dst_strides, const char* name) {
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(self);
  const PiecePlan::Operand dst = pp.dest(out);
  pp.copy(dst, 0, dst_strides, src, src_offset, src_strides, shape);
  pp.finish(fmt::format("{}.{}", name, dtype_name(self.dtype)));
}

// PyTorch's clamping of slice bounds (the CANN docs' formulas).
void clamp_slice(int64_t n, int64_t* start, int64_t* end) {
  int64_t s = *start, e = *end;
  s = s < -n ? 0 : s >= n ? n : (s + n) % n;
  e = e < -n ? s : e >= n ? n : std::max(s, (e + n) % n);
  *start = s;
  *end = e;
}

constexpr DTypeMask kSliceTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt32,
                                              DType::kInt64, DType::kInt8, DType::kUInt8, DType::kBool});

// out = self sliced along each of dims (offset start*s, stride step*s).
void plan_slices(OpBuilder& b, const aclTensor& self, const aclTensor& out, const std::vector<int64_t>& dims,
                 std::vector<int64_t> starts, std::vector<int64_t> ends, const std::vector<int64_t>& steps) {
  Dims shape = self.view, strides = self.strides;
  int64_t offset = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    const size_t d = static_cast<size_t>(dims[i]);
    clamp_slice(self.view[d], &starts[i], &ends[i]);
    shape[d] = (ends[i] - starts[i] + steps[i] - 1) / steps[i];
    offset += starts[i] * self.strides[d];
    strides[d] = self.strides[d] * steps[i];
  }
  check_shape_equals(out, "out", shape, "the sliced shape");
  plan_view(b, self, out, shape, strides, offset, contiguous_strides(shape), "slice");
}

void plan_slice(OpBuilder& b, const aclTensor* self_arg, int64_t dim, int64_t start, int64_t end, int64_t step,
                const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kSliceTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 1, 8);
  const int64_t d = wrap_dim(dim, self.dim(), "dim");
  if (step <= 0) invalid("step is {}, expected a step > 0", step);
  plan_slices(b, self, out, {d}, {start}, {end}, {step});
}

void plan_slice_v2(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* starts_arg, const aclIntArray* ends_arg,
                   const aclIntArray* axes_arg, const aclIntArray* steps_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& starts = b.int_array(starts_arg, "starts");
  const aclIntArray& ends = b.int_array(ends_arg, "ends");
  const aclIntArray& axes = b.int_array(axes_arg, "axes");
  const aclIntArray& steps = b.int_array(steps_arg, "steps");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kSliceTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  const size_t n = starts.values.size();
  if (ends.values.size() != n || axes.values.size() != n || steps.values.size() != n)
    invalid("starts, ends, axes and steps have {}, {}, {} and {} entries, expected the same number", n,
            ends.values.size(), axes.values.size(), steps.values.size());
  const std::vector<int64_t> dims = wrap_dims(axes.values, self.dim(), "axes", false);
  for (size_t i = 0; i < n; ++i)
    if (steps.values[i] <= 0) invalid("steps[{}] is {}, expected a step > 0", i, steps.values[i]);
  if (self.dim() == 0 && n > 0) invalid("self is 0-d, expected no axes to slice (axes has {} entries)", n);
  plan_slices(b, self, out, dims, starts.values, ends.values, steps.values);
}

constexpr DTypeMask kFlattenTypes =
    dtype_mask({DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kUInt8, DType::kUInt16,
                DType::kUInt32, DType::kUInt64, DType::kBool, DType::kBFloat16, DType::kFloat, DType::kFloat16});

void plan_flatten(OpBuilder& b, const aclTensor* self_arg, int64_t axis, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kFlattenTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  const int64_t a = wrap_dim(axis, self.dim(), "axis");
  int64_t rows = 1, cols = 1;
  for (int64_t k = 0; k < self.dim(); ++k) (k < a ? rows : cols) *= self.view[static_cast<size_t>(k)];
  check_shape_equals(out, "out", {rows, cols}, "the flattened shape");
  plan_view(b, self, out, self.view, self.strides, 0, contiguous_strides(self.view), "flatten");
}

constexpr DTypeMask kExpandTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kUInt8, DType::kInt8,
                                               DType::kInt32, DType::kInt64, DType::kBool, DType::kBFloat16});

void plan_expand(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* size_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& size = b.int_array(size_arg, "size");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kExpandTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  const int64_t n = static_cast<int64_t>(size.values.size()), r = self.dim();
  if (n < r) invalid("size {} has {} entries, expected at least the {} dims of self {}", list_str(size.values), n, r, dims_str(self.view));
  if (n > 8) invalid("size {} has {} entries, expected at most 8", list_str(size.values), n);
  Dims shape(static_cast<size_t>(n)), strides(static_cast<size_t>(n), 0);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t want = size.values[static_cast<size_t>(k)];
    const int64_t j = k - (n - r);  // self's dim, if any
    if (j < 0) {
      if (want < 0) invalid("size[{}] is {}, expected a size >= 0 for a new leading dim", k, want);
      shape[static_cast<size_t>(k)] = want;
      continue;
    }
    const int64_t have = self.view[static_cast<size_t>(j)];
    if (want == -1 || want == have) {
      shape[static_cast<size_t>(k)] = have;
      strides[static_cast<size_t>(k)] = self.strides[static_cast<size_t>(j)];
    } else if (have == 1 && want >= 0) {
      shape[static_cast<size_t>(k)] = want;
    } else {
      invalid("size[{}] is {} but self {} has size {} in dim {}, expected {} (or -1), or a self size of 1", k, want,
              dims_str(self.view), have, j, have);
    }
  }
  check_shape_equals(out, "out", shape, "the expanded shape");
  plan_view(b, self, out, shape, strides, 0, contiguous_strides(shape), "expand");
}

void plan_repeat(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* repeats_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& repeats = b.int_array(repeats_arg, "repeats");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kMoveTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  const int64_t n = static_cast<int64_t>(repeats.values.size()), r = self.dim();
  if (n < r) invalid("repeats {} has {} entries, expected at least the {} dims of self", list_str(repeats.values), n, r);
  if (n > 8) invalid("repeats {} has {} entries, expected at most 8", list_str(repeats.values), n);
  Dims out_shape(static_cast<size_t>(n)), shape, src_strides, inner(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t rep = repeats.values[static_cast<size_t>(k)];
    if (rep < 0) invalid("repeats[{}] is {}, expected a count >= 0", k, rep);
    const int64_t j = k - (n - r);
    const int64_t s = j < 0 ? 1 : self.view[static_cast<size_t>(j)];
    out_shape[static_cast<size_t>(k)] = rep * s;
    inner[static_cast<size_t>(k)] = s;
    shape.push_back(rep);
    shape.push_back(s);
    src_strides.push_back(0);
    src_strides.push_back(j < 0 ? 0 : self.strides[static_cast<size_t>(j)]);
  }
  check_shape_equals(out, "out", out_shape, "the repeated shape");
  const Dims os = contiguous_strides(out_shape);
  Dims dst_strides;
  for (int64_t k = 0; k < n; ++k) {
    dst_strides.push_back(inner[static_cast<size_t>(k)] * os[static_cast<size_t>(k)]);
    dst_strides.push_back(os[static_cast<size_t>(k)]);
  }
  plan_view(b, self, out, shape, src_strides, 0, dst_strides, "repeat");
}

constexpr DTypeMask kFlipTypes = kAllTypes | dtype_mask({DType::kComplex64, DType::kComplex128});

void plan_flip(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* dims_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& dims_array = b.int_array(dims_arg, "dims");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kFlipTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  check_shape_equals(out, "out", self.view, "the shape of self");
  Dims strides = self.strides;
  int64_t offset = 0;
  for (int64_t d : wrap_dims(dims_array.values, self.dim(), "dims", false)) {
    if (self.dim() == 0) continue;
    const size_t k = static_cast<size_t>(d);
    offset += (self.view[k] - 1) * self.strides[k];
    strides[k] = -self.strides[k];
  }
  plan_view(b, self, out, self.view, strides, offset, contiguous_strides(self.view), "flip");
}

constexpr DTypeMask kRollTypes =
    dtype_mask({DType::kBFloat16, DType::kFloat16, DType::kFloat, DType::kInt8, DType::kUInt8, DType::kInt32,
                DType::kInt64, DType::kUInt32, DType::kBool, DType::kInt16, DType::kComplex64});

// Source index of out index i rolled by `shift` over n: (i - shift) mod n.
std::vector<int64_t> roll_map(int64_t n, int64_t shift) {
  std::vector<int64_t> m(static_cast<size_t>(n));
  if (n == 0) return m;
  const int64_t s = ((shift % n) + n) % n;
  for (int64_t i = 0; i < n; ++i) m[static_cast<size_t>(i)] = (i - s + n) % n;
  return m;
}

void plan_roll(OpBuilder& b, const aclTensor* x_arg, const aclIntArray* shifts_arg, const aclIntArray* dims_arg,
               const aclTensor* out_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclIntArray& shifts = b.int_array(shifts_arg, "shifts");
  const aclIntArray& dims = b.int_array(dims_arg, "dims");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "x", x.dtype, kRollTypes);
  check_same_dtype(out, "out", x, "x");
  check_rank_between(x, "x", 0, 8);
  check_shape_equals(out, "out", x.view, "the shape of x");
  if (dims.values.empty() && shifts.values.size() != 1)
    invalid("shifts has {} entries, expected 1 when dims is empty (x is rolled flattened)", shifts.values.size());
  if (!dims.values.empty() && dims.values.size() != shifts.values.size())
    invalid("shifts has {} entries and dims {}, expected one shift per dim", shifts.values.size(), dims.values.size());
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  if (dims.values.empty()) {  // over the flattened elements
    PiecePlan::Operand src = pp.dense_source(x, x.dtype), dst = pp.dest(out);
    src.shape = dst.shape = {x.numel()};
    src.strides = dst.strides = {1};
    pp.gather(dst, src, {roll_map(x.numel(), shifts.values[0])});
  } else {
    std::vector<int64_t> total(static_cast<size_t>(std::max<int64_t>(x.dim(), 1)), 0);
    for (size_t i = 0; i < dims.values.size(); ++i) {  // a dim named twice rolls twice
      const size_t d = static_cast<size_t>(wrap_dim(dims.values[i], x.dim(), "dims"));
      const int64_t n = x.dim() ? x.view[d] : 1;
      total[d] = (total[d] + shifts.values[i] % n) % n;
    }
    const PiecePlan::Operand src = pp.source(x), dst = pp.dest(out);
    std::vector<std::vector<int64_t>> maps;
    for (int64_t k = 0; k < x.dim(); ++k)
      maps.push_back(roll_map(x.view[static_cast<size_t>(k)], total[static_cast<size_t>(k)]));
    pp.gather(dst, src, maps);
  }
  pp.finish(fmt::format("roll.{}", dtype_name(x.dtype)), PiecePlan::Order::kDisjoint);
}

constexpr DTypeMask kDiagTypes = kAllTypes | dtype_mask({DType::kComplex64});

// out (n+|k| square, zeroed) with the n elements of `shape`/`strides` (self's view, read in
// row-major order) on its k-th diagonal.
void plan_diag_embed(OpBuilder& b, const aclTensor& self, const aclTensor& out, int64_t k, const char* name) {
  const int64_t n = self.numel(), m = n + (k < 0 ? -k : k);
  check_shape_equals(out, "out", {m, m}, "the diagonal matrix's shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(self), dst = pp.dest(out);
  pp.fill_zero(dst, 0, {1}, {m * m});
  Dims ds = contiguous_strides(self.view);
  for (auto& s : ds) s *= m + 1;
  pp.copy(dst, k >= 0 ? k : -k * m, ds, src, 0, self.strides, self.view);
  pp.finish(fmt::format("{}.{}", name, dtype_name(self.dtype)));
}

void plan_diag(OpBuilder& b, const aclTensor* self_arg, int64_t diagonal, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kDiagTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 1, 2);
  if (self.dim() == 1) return plan_diag_embed(b, self, out, diagonal, "diag");
  const int64_t r = self.view[0], c = self.view[1];
  if (r > 0 && c > 0 && (diagonal < -(r - 1) || diagonal > c - 1))
    invalid("diagonal is {}, expected a diagonal in [{}, {}] of self {}", diagonal, -(r - 1), c - 1, dims_str(self.view));
  const int64_t len = std::max<int64_t>(0, diagonal >= 0 ? std::min(r, c - diagonal) : std::min(r + diagonal, c));
  check_shape_equals(out, "out", {len}, "the diagonal's shape");
  const int64_t offset = diagonal >= 0 ? diagonal * self.strides[1] : -diagonal * self.strides[0];
  plan_view(b, self, out, {len}, {self.strides[0] + self.strides[1]}, offset, {1}, "diag");
}

void plan_diag_flat(OpBuilder& b, const aclTensor* self_arg, int64_t diagonal, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kDiagTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 0, 8);
  plan_diag_embed(b, self, out, diagonal, "diag_flat");
}

// ---- RepeatInterleave ------------------------------------------------------------------------

constexpr DTypeMask kInterleaveTypes = dtype_mask({DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32,
                                                   DType::kInt64, DType::kBool, DType::kFloat16, DType::kBFloat16,
                                                   DType::kFloat});
constexpr DTypeMask kRepeatsTypes = dtype_mask({DType::kInt32, DType::kInt64});

// Every element of self (flattened when dim < 0, else each slice along dim) repeated `rep` times.
void plan_interleave_int(OpBuilder& b, const aclTensor* self_arg, int64_t rep, const int64_t* dim, int64_t output_size,
                         const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kInterleaveTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", dim ? 1 : 0, 8);
  if (rep < 0) invalid("repeats is {}, expected a count >= 0", rep);
  Dims shape = self.view, src_strides = self.strides, dst_strides;
  Dims out_shape;
  if (!dim) {
    out_shape = {self.numel() * rep};
    if (output_size != out_shape[0])
      invalid("outputSize is {}, expected self's {} elements times repeats {} = {}", output_size, self.numel(), rep,
              out_shape[0]);
    dst_strides = contiguous_strides(self.view);
    for (auto& s : dst_strides) s *= rep;
    shape.push_back(rep);
    src_strides.push_back(0);
    dst_strides.push_back(1);
  } else {
    const int64_t d = wrap_dim(*dim, self.dim(), "dim");
    out_shape = self.view;
    out_shape[static_cast<size_t>(d)] *= rep;
    if (output_size != out_shape[static_cast<size_t>(d)])
      invalid("outputSize is {}, expected self's size {} in dim {} times repeats {} = {}", output_size,
              self.view[static_cast<size_t>(d)], d, rep, out_shape[static_cast<size_t>(d)]);
    dst_strides = contiguous_strides(out_shape);
    const int64_t os = dst_strides[static_cast<size_t>(d)];
    dst_strides[static_cast<size_t>(d)] = os * rep;
    dst_strides.insert(dst_strides.begin() + d + 1, os);
    shape.insert(shape.begin() + d + 1, rep);
    src_strides.insert(src_strides.begin() + d + 1, 0);
  }
  check_shape_equals(out, "out", out_shape, "the repeated shape");
  plan_view(b, self, out, shape, src_strides, 0, dst_strides, "repeat_interleave");
}

// Counts from a tensor (read at run time): slice j of self along d repeated repeats[j] times (or
// repeats[0] times when repeats has one element). Flattened when dim is null.
void plan_interleave_tensor(OpBuilder& b, const aclTensor* self_arg, const aclTensor* repeats_arg, const int64_t* dim,
                            int64_t output_size, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& repeats = b.input(repeats_arg, "repeats");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kInterleaveTypes);
  check_dtype_in(b.op(), "repeats", repeats.dtype, kRepeatsTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", dim ? 1 : 0, 8);
  check_rank_between(repeats, "repeats", 0, 1);
  const int64_t d = dim ? wrap_dim(*dim, self.dim(), "dim") : 0;
  const int64_t n = dim ? self.view[static_cast<size_t>(d)] : self.numel();
  const int64_t nr = repeats.numel();
  if (nr != 1 && nr != n)
    invalid("repeats has {} elements, expected 1 or {} (the {})", nr, n,
            dim ? fmt::format("size of self's dim {}", d) : std::string("number of elements of self"));
  if (output_size < 0) invalid("outputSize is {}, expected a size >= 0", output_size);
  Dims out_shape = dim ? self.view : Dims{0};
  out_shape[static_cast<size_t>(d)] = output_size;
  check_shape_equals(out, "out", out_shape, "self's shape with outputSize in the repeated dim");
  if (out.numel() == 0 && n == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const bool flat = dim == nullptr;
  const int src = flat ? p.input(self, self.dtype) : p.strided(self);  // flattened: a dense copy
  const int rep = p.input(repeats, DType::kInt64);
  const int dst = p.output(out, out.dtype);
  // Slice j of self (all dims but d) goes to out's rows [at, at + repeats[j]) along d.
  const Dims view = flat ? Dims{n} : self.view, strides = flat ? Dims{1} : self.strides;
  const Dims ostrides = contiguous_strides(out_shape);
  const Dims slice = erase_dim(view, d), src_st = erase_dim(strides, d), dst_st = erase_dim(ostrides, d);
  const int64_t sd = strides[static_cast<size_t>(d)], od = ostrides[static_cast<size_t>(d)];
  const DType t = self.dtype;
  p.finish(fmt::format("repeat_interleave.{}", dtype_name(t)), [=](const DenseArgs& a) {
    const int64_t* r = a.in<int64_t>(rep);
    const int64_t es = static_cast<int64_t>(dtype_size(t));
    int64_t at = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t count = r[nr == 1 ? 0 : j];
      if (count < 0) invalid("repeats[{}] is {}, expected a count >= 0", nr == 1 ? 0 : j, count);
      if (count > output_size - at)
        invalid("repeats sum to more than outputSize {} (at element {} of the repeated dim)", output_size, j);
      const char* s = static_cast<const char*>(a.ptr(src)) + j * sd * es;
      for (int64_t c = 0; c < count; ++c, ++at)
        copy_strided(slice, t, static_cast<char*>(a.ptr(dst)) + at * od * es, dst_st, t, s, src_st);
    }
    if (at != output_size) invalid("repeats sum to {}, expected outputSize {}", at, output_size);
  });
}

// out = [0]*repeats[0] ++ [1]*repeats[1] ++ ...
void plan_interleave_counts(OpBuilder& b, const aclTensor* repeats_arg, int64_t output_size, const aclTensor* out_arg) {
  const aclTensor& repeats = b.input(repeats_arg, "repeats");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "repeats", repeats.dtype, kRepeatsTypes);
  check_same_dtype(out, "out", repeats, "repeats");
  check_rank_between(repeats, "repeats", 1, 1);
  if (output_size < 0) invalid("outputSize is {}, expected a size >= 0", output_size);
  check_shape_equals(out, "out", {output_size}, "[outputSize]");
  DensePlan p(b);
  p.separate_outputs();
  const int rep = p.input(repeats, DType::kInt64);
  const int dst = p.output(out, DType::kInt64);
  const int64_t n = repeats.numel();
  p.finish("repeat_interleave_tensor", [=](const DenseArgs& a) {
    const int64_t* r = a.in<int64_t>(rep);
    int64_t* o = a.out<int64_t>(dst);
    int64_t at = 0;
    for (int64_t j = 0; j < n; ++j) {
      if (r[j] < 0) invalid("repeats[{}] is {}, expected a count >= 0", j, r[j]);
      if (at + r[j] > output_size) invalid("repeats sum to more than outputSize {}", output_size);
      for (int64_t c = 0; c < r[j]; ++c) o[at++] = j;
    }
    if (at != output_size) invalid("repeats sum to {}, expected outputSize {}", at, output_size);
  });
}

// ---- ChannelShuffle / ConfusionTranspose / InplaceFillDiagonal -------------------------------------

constexpr DTypeMask kShuffleTypes = kAllTypes | dtype_mask({DType::kComplex64, DType::kComplex128});

void plan_channel_shuffle(OpBuilder& b, const aclTensor* self_arg, int64_t groups, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kShuffleTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 3, 7);
  check_shape_equals(out, "out", self.view, "the shape of self");
  const int64_t c = self.view[1];
  if (groups <= 0 || c % groups != 0)
    invalid("groups is {}, expected a positive divisor of self's {} channels", groups, c);
  // Out channel j*groups + i is self channel i*(c/groups) + j: iterate (n, j, i, rest...).
  const int64_t per = c / groups;
  const Dims os = contiguous_strides(self.view);
  Dims shape = {self.view[0], per, groups}, src = {self.strides[0], self.strides[1], per * self.strides[1]},
       dst = {os[0], groups * os[1], os[1]};
  for (size_t k = 2; k < self.view.size(); ++k) {
    shape.push_back(self.view[k]);
    src.push_back(self.strides[k]);
    dst.push_back(os[k]);
  }
  plan_view(b, self, out, shape, src, 0, dst, "channel_shuffle");
}

constexpr DTypeMask kConfusionTypes =
    dtype_mask({DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kUInt8, DType::kUInt16, DType::kUInt32,
                DType::kUInt64, DType::kFloat16, DType::kFloat, DType::kBFloat16});

void plan_confusion_transpose(OpBuilder& b, const aclTensor* x_arg, const aclIntArray* perm_arg,
                              const aclIntArray* shape_arg, bool transpose_first, const aclTensor* out_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclIntArray& perm_a = b.int_array(perm_arg, "perm");
  const aclIntArray& shape_a = b.int_array(shape_arg, "shape");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "x", x.dtype, kConfusionTypes);
  check_same_dtype(out, "out", x, "x");
  check_rank_between(x, "x", 1, 8);
  const Dims& shape = shape_a.values;
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) invalid("shape[{}] is {}, expected a size >= 0", i, shape[i]);
    n *= shape[i];
  }
  if (n != x.numel())
    invalid("shape {} has {} elements, expected the {} elements of x {}", list_str(shape), n, x.numel(), dims_str(x.view));
  if (shape.size() > 8) invalid("shape {} has {} dims, expected at most 8", list_str(shape), shape.size());
  // The permuted tensor: x itself (transposeFirst) or x reshaped to `shape`.
  const Dims& pre = transpose_first ? x.view : shape;
  if (perm_a.values.size() != pre.size())
    invalid("perm has {} entries, expected {} (the dims of {})", perm_a.values.size(), pre.size(),
            transpose_first ? "x" : "shape");
  const std::vector<int64_t> perm = wrap_dims(perm_a.values, static_cast<int64_t>(pre.size()), "perm", false);
  Dims permuted(pre.size());
  for (size_t i = 0; i < perm.size(); ++i) permuted[i] = pre[static_cast<size_t>(perm[i])];
  check_shape_equals(out, "out", transpose_first ? shape : permuted, "the transposed and reshaped shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  PiecePlan::Operand src = transpose_first ? pp.source(x) : pp.dense_source(x, x.dtype);
  if (!transpose_first) src.strides = contiguous_strides(shape);
  const PiecePlan::Operand dst = pp.dest(out);
  Dims ss(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) ss[i] = src.strides[static_cast<size_t>(perm[i])];
  pp.copy(dst, 0, contiguous_strides(permuted), src, 0, ss, permuted);
  pp.finish(fmt::format("confusion_transpose.{}", dtype_name(x.dtype)));
}

constexpr DTypeMask kFillDiagonalTypes = kAllTypes | dtype_mask({DType::kComplex64});

void plan_fill_diagonal(OpBuilder& b, const aclTensor* self_arg, const aclScalar* value_arg, bool wrap) {
  const aclTensor& self = b.inout(self_arg, "selfRef");
  const aclScalar& value = b.scalar(value_arg, "fillValue");
  check_dtype_in(b.op(), "selfRef", self.dtype, kFillDiagonalTypes);
  check_rank_between(self, "selfRef", 2, 8);
  if (self.dim() > 2)
    for (int64_t k = 1; k < self.dim(); ++k)
      if (self.view[static_cast<size_t>(k)] != self.view[0])
        invalid("selfRef {} has dims of different lengths, expected equal lengths for more than 2 dims", dims_str(self.view));
  if (!is_compute_dtype(value.dtype)) invalid("fillValue has dtype {}, expected a real dtype", dtype_name(value.dtype));
  if (is_integral(self.dtype, true) && self.dtype != DType::kBool) {
    const double v = value.to_double();
    if (std::isnan(v)) invalid("fillValue is nan, which selfRef's dtype {} cannot hold", dtype_name(self.dtype));
    double lo = 0, hi = 0;
    switch (self.dtype) {
      case DType::kUInt8: lo = 0, hi = 255; break;
      case DType::kInt8: lo = -128, hi = 127; break;
      case DType::kInt16: lo = -32768, hi = 32767; break;
      case DType::kInt32: lo = -2147483648.0, hi = 2147483647.0; break;
      default: lo = -9.3e18, hi = 9.3e18; break;
    }
    if (v < lo || v > hi) invalid("fillValue {} overflows selfRef's dtype {}", value.describe(), dtype_name(self.dtype));
  }
  if (self.numel() == 0) return;
  const int64_t rows = self.view[0], cols = self.view[1];
  const int64_t size = self.dim() == 2 ? std::min(rows, cols) : rows;
  PiecePlan pp(b);
  const PiecePlan::Operand dst = pp.dest(self, self.dtype, Access::kReadWrite);
  int64_t step = 0;
  for (int64_t s : dst.strides) step += s;
  const auto bytes = element_bytes(self.dtype, value);
  pp.fill(dst, 0, {step}, {size}, bytes);
  if (wrap && self.dim() == 2 && rows > cols + 1) {  // PyTorch: the diagonal restarts every cols + 1 rows
    const int64_t more = (self.numel() + cols) / (cols + 1) - size;
    if (more > 0) pp.fill(dst, (cols + 1) * dst.strides[0], {step}, {more}, bytes);
  }
  pp.finish(fmt::format("fill_diagonal.{}", dtype_name(self.dtype)));
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t start, int64_t end,
                                                  int64_t step, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Slice, "aclnnSliceGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_slice(b, self, dim, start, end, step, out); });
}

extern "C" aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* starts,
                                                    const aclIntArray* ends, const aclIntArray* axes,
                                                    const aclIntArray* steps, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SliceV2, "aclnnSliceV2GetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_slice_v2(b, self, starts, ends, axes, steps, out); });
}

extern "C" aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor* self, int64_t axis, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Flatten, "aclnnFlattenGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_flatten(b, self, axis, out); });
}

extern "C" aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor* self, const aclIntArray* size, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Expand, "aclnnExpandGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_expand(b, self, size, out); });
}

extern "C" aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Repeat, "aclnnRepeatGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_repeat(b, self, repeats, out); });
}

extern "C" aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Flip, "aclnnFlipGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_flip(b, self, dims, out); });
}

extern "C" aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Roll, "aclnnRollGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_roll(b, x, shifts, dims, out); });
}

extern "C" aclnnStatus aclnnDiagGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Diag, "aclnnDiagGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_diag(b, self, diagonal, out); });
}

extern "C" aclnnStatus aclnnDiagFlatGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DiagFlat, "aclnnDiagFlatGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_diag_flat(b, self, diagonal, out); });
}

extern "C" aclnnStatus aclnnRepeatInterleaveGetWorkspaceSize(const aclTensor* self, const aclTensor* repeats,
                                                             int64_t outputSize, aclTensor* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RepeatInterleave, "aclnnRepeatInterleaveGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_interleave_tensor(b, self, repeats, nullptr, outputSize, out); });
}

extern "C" aclnnStatus aclnnRepeatInterleaveWithDimGetWorkspaceSize(const aclTensor* self, const aclTensor* repeats,
                                                                    int64_t dim, int64_t outputSize, aclTensor* out,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RepeatInterleaveWithDim, "aclnnRepeatInterleaveWithDimGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_interleave_tensor(b, self, repeats, &dim, outputSize, out); });
}

extern "C" aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                                int64_t outputSize, aclTensor* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RepeatInterleaveInt, "aclnnRepeatInterleaveIntGetWorkspaceSize", workspaceSize,
                          executor,
                          [&](OpBuilder& b) { pacl::plan_interleave_int(b, self, repeats, nullptr, outputSize, out); });
}

extern "C" aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                                       int64_t dim, int64_t outputSize,
                                                                       aclTensor* out, uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RepeatInterleaveIntWithDim, "aclnnRepeatInterleaveIntWithDimGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_interleave_int(b, self, repeats, &dim, outputSize, out); });
}

extern "C" aclnnStatus aclnnRepeatInterleaveTensorGetWorkspaceSize(const aclTensor* repeats, int64_t outputSize,
                                                                   aclTensor* out, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RepeatInterleaveTensor, "aclnnRepeatInterleaveTensorGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_interleave_counts(b, repeats, outputSize, out); });
}

extern "C" aclnnStatus aclnnChannelShuffleGetWorkspaceSize(const aclTensor* self, int64_t groups, aclTensor* out,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ChannelShuffle, "aclnnChannelShuffleGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_channel_shuffle(b, self, groups, out); });
}

extern "C" aclnnStatus aclnnConfusionTransposeGetWorkspaceSize(const aclTensor* x, const aclIntArray* perm,
                                                               const aclIntArray* shape, bool transpose_first,
                                                               aclTensor* out, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ConfusionTranspose, "aclnnConfusionTransposeGetWorkspaceSize", workspaceSize,
                          executor,
                          [&](OpBuilder& b) { pacl::plan_confusion_transpose(b, x, perm, shape, transpose_first, out); });
}

extern "C" aclnnStatus aclnnInplaceFillDiagonalGetWorkspaceSize(aclTensor* selfRef, const aclScalar* fillValue,
                                                                bool wrap, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceFillDiagonal, "aclnnInplaceFillDiagonalGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) { pacl::plan_fill_diagonal(b, selfRef, fillValue, wrap); });
}
