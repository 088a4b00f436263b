// Embedding-related ops beyond the plain lookup: EmbeddingBag, EmbeddingDenseBackward, and the
// backward passes of MaxUnpool2d/3d (an element gather over flattened planes).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_embedding_bag.h"
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_max_unpool2d_backward.h"
#include "aclnnop/aclnn_max_unpool3d_backward.h"
#include "core/convert.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/index_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr int64_t kMaxRank = 8;

void same_dtype(const aclTensor& t, const char* name, DType want, const char* what) {
  if (t.dtype != want) invalid("{} has dtype {}, expected {} ({})", name, dtype_name(t.dtype), dtype_name(want), what);
}

// ---- EmbeddingBag -----------------------------------------------------------------------------------------
// PyTorch 1.13's _embedding_bag on CPU: sum (mode 0), mean (1), max (other). Indices equal to
// paddingIdx (>= 0) take no part (and do not count in a bag's size). bagSize is filled for mean and
// max (zeros for sum), maxIndices holds the argmax rows for max, bagSize for mean, zeros for sum.

constexpr DTypeMask kBagTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

void plan_embedding_bag(OpBuilder& b, const aclTensor* weight_arg, const aclTensor* indices_arg,
                        const aclTensor* offsets_arg, bool scale_grad, int64_t mode, bool sparse,
                        const aclTensor* psw_arg, bool include_last, int64_t padding_idx, const aclTensor* output_arg,
                        const aclTensor* offset2bag_arg, const aclTensor* bag_size_arg, const aclTensor* max_idx_arg) {
  const aclTensor& weight = b.input(weight_arg, "weight");
  const aclTensor& indices = b.input(indices_arg, "indices");
  const aclTensor& offsets = b.input(offsets_arg, "offsets");
  const aclTensor* psw = psw_arg ? &b.input(psw_arg, "perSampleWeights") : nullptr;
  const aclTensor& output = b.output(output_arg, "output");
  const aclTensor& offset2bag = b.output(offset2bag_arg, "offset2bag");
  const aclTensor& bag_size = b.output(bag_size_arg, "bagSize");
  const aclTensor& max_idx = b.output(max_idx_arg, "maxIndices");
  check_dtype_in(b.op(), "weight", weight.dtype, kBagTypes);
  check_dtype_in(b.op(), "indices", indices.dtype, kIndexDTypes);
  check_dtype_in(b.op(), "offsets", offsets.dtype, kIndexDTypes);
  if (weight.dim() != 2) invalid("weight has {} dims ({}), expected 2", weight.dim(), dims_str(weight.view));
  if (indices.dim() > 2) invalid("indices has {} dims ({}), expected at most 2", indices.dim(), dims_str(indices.view));
  if (offsets.dim() > 1) invalid("offsets has {} dims ({}), expected at most 1", offsets.dim(), dims_str(offsets.view));
  if (scale_grad) invalid("scaleGradByFreq must be false (CANN supports only false)");
  if (sparse) invalid("sparse must be false (CANN supports only false)");
  const bool is_max = mode != 0 && mode != 1;
  if (psw) {
    if (mode != 0) invalid("perSampleWeights must be null unless mode is 0 (sum); mode is {}", mode);
    same_dtype(*psw, "perSampleWeights", weight.dtype, "weight's dtype");
    if (psw->numel() != indices.numel())
      invalid("perSampleWeights has {} elements, expected one per index ({})", psw->numel(), indices.numel());
  }
  const bool two_d = indices.dim() == 2;
  if (two_d && include_last) invalid("includeLastOffset must be false with 2-d indices");
  const int64_t n = indices.numel(), dim = weight.view[1];
  const int64_t bags = two_d ? indices.view[0] : (include_last ? std::max<int64_t>(offsets.numel() - 1, 0) : offsets.numel());
  const DType it = indices.dtype == DType::kInt64 || offsets.dtype == DType::kInt64 ? DType::kInt64 : DType::kInt32;
  same_dtype(output, "output", weight.dtype, "weight's dtype");
  check_shape_equals(output, "output", Dims{bags, dim}, "[bags, weight.shape[1]]");
  same_dtype(offset2bag, "offset2bag", it, "the wider of indices' and offsets' dtypes");
  same_dtype(bag_size, "bagSize", it, "the wider of indices' and offsets' dtypes");
  same_dtype(max_idx, "maxIndices", it, "the wider of indices' and offsets' dtypes");
  check_shape_equals(offset2bag, "offset2bag", Dims{n}, "[indices.numel()]");
  check_shape_equals(bag_size, "bagSize", Dims{bags}, "[bags]");
  check_shape_equals(max_idx, "maxIndices", is_max ? Dims{bags, dim} : Dims{bags}, is_max ? "[bags, weight.shape[1]]" : "[bags]");
  DensePlan p(b);
  p.separate_outputs();
  const int wi = p.input(weight, DType::kFloat);
  const int ii = p.input(indices, DType::kInt64);
  const int oi = two_d ? -1 : p.input(offsets, DType::kInt64);
  const int pi = psw ? p.input(*psw, DType::kFloat) : -1;
  const int out = p.output(output, DType::kFloat);
  const int o2b = p.output(offset2bag, DType::kInt64);
  const int bs = p.output(bag_size, DType::kInt64);
  const int mi = p.output(max_idx, DType::kInt64);
  const int64_t rows = weight.view[0], n_off = offsets.numel(), per_row = two_d ? indices.view[1] : 0;
  const Dims ishape = indices.view;
  p.finish(std::string("index.embedding_bag.") + dtype_name(weight.dtype), [=](const DenseArgs& a) {
    const float* w = a.in<float>(wi);
    const int64_t* idx = a.in<int64_t>(ii);
    const float* sw = pi >= 0 ? a.in<float>(pi) : nullptr;
    float* y = a.out<float>(out);
    int64_t* bag_of = a.out<int64_t>(o2b);
    int64_t* size = a.out<int64_t>(bs);
    int64_t* arg = a.out<int64_t>(mi);
    check_index_values("EmbeddingBag", "indices", ishape, idx, n, rows, IndexRule::kNonNegative, "weight.shape[0]");
    auto begin_of = [&](int64_t bag) -> int64_t {
      if (two_d) return bag * per_row;
      return a.in<int64_t>(oi)[bag];
    };
    auto end_of = [&](int64_t bag) -> int64_t {
      if (two_d) return (bag + 1) * per_row;
      return bag + 1 < n_off ? a.in<int64_t>(oi)[bag + 1] : n;
    };
    for (int64_t g = 0; g < bags; ++g) {
      const int64_t s = begin_of(g), e = end_of(g);
      if (s < 0 || e > n || s > e)
        throw InvalidArgument(fmt::format("aclnnEmbeddingBag: bag {} spans indices [{}, {}), outside [0, {}] or "
                                          "decreasing (offsets must be non-decreasing and at most indices.numel())",
                                          g, s, e, n));
    }
    std::fill_n(y, bags * dim, 0.0f);
    std::fill_n(size, bags, 0);
    std::fill_n(arg, is_max ? bags * dim : bags, 0);
    std::fill_n(bag_of, n, 0);
    for (int64_t g = 0; g < bags; ++g) {
      const int64_t s = begin_of(g), e = end_of(g);
      int64_t count = 0;
      for (int64_t j = s; j < e; ++j) {
        bag_of[j] = g;
        const int64_t r = idx[j];
        if (padding_idx >= 0 && r == padding_idx) continue;
        const float* row = w + r * dim;
        float* dst = y + g * dim;
        if (is_max) {
          for (int64_t c = 0; c < dim; ++c)
            if (count == 0 || row[c] > dst[c]) {
              dst[c] = row[c];
              arg[g * dim + c] = r;
            }
        } else {
          const float f = sw ? sw[j] : 1.0f;
          for (int64_t c = 0; c < dim; ++c) dst[c] += f * row[c];
        }
        ++count;
      }
      if (mode == 1 && count > 0)
        for (int64_t c = 0; c < dim; ++c) y[g * dim + c] /= static_cast<float>(count);
      if (mode != 0) size[g] = count;
      if (mode == 1) arg[g] = count;
    }
  });
}

// ---- EmbeddingDenseBackward ---------------------------------------------------------------------------------

constexpr DTypeMask kDenseGradIndexTypes = kAllTypes & ~dtype_mask({DType::kBFloat16});

void plan_embedding_dense_backward(OpBuilder& b, const aclTensor* grad_arg, const aclTensor* indices_arg,
                                   uint64_t num_weights, uint64_t padding_idx, bool scale, const aclTensor* out_arg) {
  const aclTensor& grad = b.input(grad_arg, "grad");
  const aclTensor& indices = b.input(indices_arg, "indices");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "grad", grad.dtype, kBagTypes);
  check_dtype_in(b.op(), "indices", indices.dtype, kDenseGradIndexTypes);
  same_dtype(out, "out", grad.dtype, "grad's dtype");
  if (grad.dim() < 2) invalid("grad has {} dims ({}), expected 2 to 8", grad.dim(), dims_str(grad.view));
  check_rank(grad, "grad", kMaxRank);
  check_rank(indices, "indices", kMaxRank);
  const int64_t dim = grad.view.back();
  if (grad.numel() != indices.numel() * dim)
    invalid("grad has shape {}, expected indices' {} elements times the embedding size {} (grad.shape[-1])",
            dims_str(grad.view), indices.numel(), dim);
  if (num_weights > static_cast<uint64_t>(INT64_MAX)) invalid("numWeights is {}, too large", num_weights);
  const int64_t rows = static_cast<int64_t>(num_weights);
  check_shape_equals(out, "out", Dims{rows, dim}, "[numWeights, grad.shape[-1]]");
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int gi = p.input(grad, DType::kFloat);
  const int ii = p.input(indices, DType::kInt64);
  const int oi = p.output(out, DType::kFloat);
  const size_t count_at = scale ? p.scratch(static_cast<size_t>(rows) * sizeof(int64_t)) : 0;
  const int64_t n = indices.numel();
  const Dims ishape = indices.view;
  const int64_t pad = padding_idx > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(padding_idx);
  p.finish(std::string("index.embedding_dense_backward.") + dtype_name(grad.dtype), [=](const DenseArgs& a) {
    const float* g = a.in<float>(gi);
    const int64_t* idx = a.in<int64_t>(ii);
    float* y = a.out<float>(oi);
    check_index_values("EmbeddingDenseBackward", "indices", ishape, idx, n, rows, IndexRule::kNonNegative, "numWeights");
    std::fill_n(y, rows * dim, 0.0f);
    int64_t* count = scale ? a.scratch<int64_t>(count_at) : nullptr;
    if (count) {
      std::fill_n(count, rows, 0);
      for (int64_t i = 0; i < n; ++i) ++count[idx[i]];
    }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = idx[i];
      if (r == pad) continue;
      const float f = count ? 1.0f / static_cast<float>(count[r]) : 1.0f;
      for (int64_t c = 0; c < dim; ++c) y[r * dim + c] += f * g[i * dim + c];
    }
  });
}

// ---- MaxUnpool2d/3d backward ---------------------------------------------------------------------------------

void plan_unpool_backward(OpBuilder& b, const aclTensor* grad_arg, const aclTensor* self_arg, const aclTensor* idx_arg,
                          const aclIntArray* size_arg, const aclIntArray* stride_arg, const aclIntArray* pad_arg,
                          const aclTensor* out_arg, int spatial) {
  const aclTensor& grad = b.input(grad_arg, "gradOutput");
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& indices = b.input(idx_arg, "indices");
  const aclIntArray& size = b.int_array(size_arg, "outputSize");
  const aclIntArray* stride = stride_arg ? &b.int_array(stride_arg, "stride") : nullptr;
  const aclIntArray* pad = pad_arg ? &b.int_array(pad_arg, "padding") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  const DTypeMask types = spatial == 2 ? (kAllTypes & ~dtype_mask({DType::kBFloat16, DType::kDouble}))
                                       : (kNumericTypes & ~dtype_mask({DType::kBFloat16}));
  check_dtype_in(b.op(), "gradOutput", grad.dtype, types);
  check_dtype_in(b.op(), "out", out.dtype, types);
  same_dtype(self, "self", grad.dtype, "gradOutput's dtype");
  check_dtype_in(b.op(), "indices", indices.dtype, spatial == 2 ? kIndexDTypes : dtype_mask({DType::kInt64}));
  if (spatial == 3) same_dtype(out, "out", grad.dtype, "gradOutput's dtype");
  else check_can_cast(grad.dtype, out, "out");
  const int64_t rank = self.dim();
  if (rank != spatial + 1 && rank != spatial + 2)
    invalid("self has {} dims ({}), expected {} or {}", rank, dims_str(self.view), spatial + 1, spatial + 2);
  if (grad.dim() != rank) invalid("gradOutput has {} dims ({}), expected as many as self ({})", grad.dim(), dims_str(grad.view), rank);
  check_shape_equals(indices, "indices", self.view, "self's shape");
  check_shape_equals(out, "out", self.view, "self's shape");
  if (static_cast<int64_t>(size.values.size()) != spatial)
    invalid("outputSize has {} elements, expected {}", size.values.size(), spatial);
  if (stride && static_cast<int64_t>(stride->values.size()) != spatial)
    invalid("stride has {} elements, expected {}", stride->values.size(), spatial);
  if (pad && static_cast<int64_t>(pad->values.size()) != spatial)
    invalid("padding has {} elements, expected {}", pad->values.size(), spatial);
  if (stride)
    for (int64_t s : stride->values)
      if (s <= 0) invalid("stride {} has an element <= 0", dims_str(stride->values));
  const int64_t lead = rank - spatial;
  int64_t plane_out = 1, plane_in = 1;
  for (int64_t k = 0; k < spatial; ++k) {
    const int64_t o = size.values[static_cast<size_t>(k)];
    if (o <= 0 && spatial == 3) invalid("outputSize {} has an element <= 0", dims_str(size.values));
    if (grad.view[static_cast<size_t>(lead + k)] != o)
      invalid("gradOutput has shape {}: its last {} dims must equal outputSize {}", dims_str(grad.view), spatial,
              dims_str(size.values));
    plane_out *= o;
    plane_in *= self.view[static_cast<size_t>(lead + k)];
  }
  for (int64_t k = 0; k < lead; ++k)
    if (grad.view[static_cast<size_t>(k)] != self.view[static_cast<size_t>(k)])
      invalid("gradOutput has shape {} and self {}: their leading (N, C) dims must be equal", dims_str(grad.view),
              dims_str(self.view));
  if (self.numel() > 0 && grad.numel() == 0) invalid("gradOutput is empty but self is not");
  if (out.numel() == 0) return;
  const int64_t planes = self.numel() / plane_in;
  const DType D = is_compute_dtype(out.dtype) && is_compute_dtype(grad.dtype) ? out.dtype : grad.dtype;
  DensePlan p(b);
  p.separate_outputs();
  const int gi = p.input(grad, D);
  const int ii = p.input(indices, DType::kInt64);
  const int oi = p.output(out, D);
  ElementWalk w;
  w.ishape = {planes, plane_in};
  w.dshape = {planes, plane_out};
  w.dim = 1;
  const size_t esize = dtype_size(D);
  const Dims iview = indices.view;
  const int64_t n = indices.numel();
  const char* op = b.op().name;
  p.finish(std::string("index.max_unpool_backward.") + dtype_name(D), [=](const DenseArgs& a) {
    ElementWalk walk = w;
    walk.idx = a.in<int64_t>(ii);
    check_index_values(op, "indices", iview, walk.idx, n, plane_out, IndexRule::kNonNegative, "the output plane size");
    gather_elements(esize, a.ptr(gi), a.ptr(oi), walk);
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnEmbeddingBagGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                              const aclTensor* offsets, bool scaleGradByFreq, int64_t mode,
                                              bool sparse, const aclTensor* perSampleWeights, bool includeLastOffset,
                                              int64_t paddingIdx, aclTensor* output, aclTensor* offset2bag,
                                              aclTensor* bagSize, aclTensor* maxIndices, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_EmbeddingBag, "aclnnEmbeddingBagGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_embedding_bag(b, weight, indices, offsets, scaleGradByFreq, mode, sparse,
                                                     perSampleWeights, includeLastOffset, paddingIdx, output,
                                                     offset2bag, bagSize, maxIndices);
                          });
}

aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(const aclTensor* grad, const aclTensor* indices,
                                                        uint64_t numWeights, uint64_t paddingIdx, bool scaleGradByFreq,
                                                        const aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_EmbeddingDenseBackward, "aclnnEmbeddingDenseBackwardGetWorkspaceSize",
                          workspaceSize, executor, [&](OpBuilder& b) {
                            pacl::plan_embedding_dense_backward(b, grad, indices, numWeights, paddingIdx,
                                                                scaleGradByFreq, out);
                          });
}

aclnnStatus aclnnMaxUnpool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     const aclTensor* indices, const aclIntArray* outputSize,
                                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxUnpool2dBackward, "aclnnMaxUnpool2dBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_unpool_backward(b, gradOutput, self, indices, outputSize, nullptr, nullptr, out, 2);
                          });
}

aclnnStatus aclnnMaxUnpool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     const aclTensor* indices, const aclIntArray* outputSize,
                                                     const aclIntArray* stride, const aclIntArray* padding,
                                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_MaxUnpool3dBackward, "aclnnMaxUnpool3dBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            if (!stride) throw pacl::NullArgument("argument 'stride' is null");
                            if (!padding) throw pacl::NullArgument("argument 'padding' is null");
                            pacl::plan_unpool_backward(b, gradOutput, self, indices, outputSize, stride, padding, out, 3);
                          });
}

}  // extern "C"
