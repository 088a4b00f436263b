// Counting ops of the index family: Bincount, Histc, RepeatInterleaveGrad. (Flip and the
// RepeatInterleave forms are movement ops: src/ops/layout.cpp.)
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "aclnnop/aclnn_bincount.h"
#include "aclnnop/aclnn_histc.h"
#include "aclnnop/aclnn_repeat_interleave_grad.h"
#include "core/convert.h"
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

// ---- Bincount ---------------------------------------------------------------------------------------------

void plan_bincount(OpBuilder& b, const aclTensor* self_arg, const aclTensor* weights_arg, int64_t minlength,
                   const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor* weights = weights_arg ? &b.input(weights_arg, "weights") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kIntegralTypes);
  if (weights)
    check_dtype_in(b.op(), "weights", weights->dtype, kAllTypes & ~dtype_mask({DType::kBFloat16}));
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kInt32, DType::kInt64, DType::kFloat, DType::kDouble}));
  if (self.dim() != 1) invalid("self has {} dims ({}), expected 1", self.dim(), dims_str(self.view));
  if (out.dim() != 1) invalid("out has {} dims ({}), expected 1", out.dim(), dims_str(out.view));
  if (weights && weights->view != self.view)
    invalid("weights has shape {}, expected self's shape {}", dims_str(weights->view), dims_str(self.view));
  if (minlength < 0) invalid("minlength is {}, expected a value >= 0", minlength);
  if (out.numel() < minlength) invalid("out has {} elements, expected at least minlength ({})", out.numel(), minlength);
  if (out.numel() == 0) return;
  const bool floating = is_floating(out.dtype);
  DensePlan p(b);
  p.separate_outputs();
  const int s = p.input(self, DType::kInt64);
  const int w = weights ? p.input(*weights, floating ? out.dtype : DType::kInt64) : -1;
  const int o = p.output(out, out.dtype);
  const int64_t n = self.numel(), bins = out.numel();
  const DType ot = out.dtype;
  const Dims sshape = self.view;
  p.finish(std::string("index.bincount.") + dtype_name(ot), [=](const DenseArgs& a) {
    const int64_t* x = a.in<int64_t>(s);
    check_index_values("Bincount", "self", sshape, x, n, bins, IndexRule::kNonNegative, "out.numel()");
    visit_dtype(ot, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t> ||
                    std::is_same_v<T, int64_t>) {
        using Acc = std::conditional_t<std::is_floating_point_v<T>, T, int64_t>;
        T* dst = a.out<T>(o);
        std::vector<Acc> acc(static_cast<size_t>(bins), Acc(0));
        for (int64_t i = 0; i < n; ++i) {
          if (w < 0) acc[static_cast<size_t>(x[i])] += Acc(1);
          else if constexpr (std::is_floating_point_v<T>) acc[static_cast<size_t>(x[i])] += a.in<T>(w)[i];
          else acc[static_cast<size_t>(x[i])] += a.in<int64_t>(w)[i];
        }
        for (int64_t k = 0; k < bins; ++k) dst[k] = static_cast<T>(acc[static_cast<size_t>(k)]);
      }
    });
  });
}

// ---- Histc ------------------------------------------------------------------------------------------------

constexpr DTypeMask kHistcTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kInt32, DType::kInt64,
                                              DType::kInt16, DType::kInt8, DType::kUInt8});

void plan_histc(OpBuilder& b, const aclTensor* self_arg, int64_t bins, const aclScalar* min_arg,
                const aclScalar* max_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclScalar& mn = b.scalar(min_arg, "min");
  const aclScalar& mx = b.scalar(max_arg, "max");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kHistcTypes);
  check_dtype_in(b.op(), "out", out.dtype, kHistcTypes);
  check_rank(self, "self", kMaxRank);
  if (bins <= 0) invalid("bins is {}, expected a value > 0", bins);
  if (out.dim() != 1) invalid("out has {} dims ({}), expected 1", out.dim(), dims_str(out.view));
  if (out.numel() != bins) invalid("out has {} elements, expected bins ({})", out.numel(), bins);
  const double lo = mn.to_double(), hi = mx.to_double();
  if (std::isnan(lo) || std::isnan(hi)) invalid("min ({}) and max ({}) must not be NaN", lo, hi);
  if (lo > hi) invalid("min ({}) is greater than max ({})", lo, hi);
  DensePlan p(b);
  p.separate_outputs();
  const int s = self.numel() > 0 ? p.input(self, DType::kDouble) : -1;
  const int o = p.output(out, DType::kDouble);
  const int64_t n = self.numel();
  p.finish(std::string("index.histc.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const double* x = s >= 0 ? a.in<double>(s) : nullptr;
    double* h = a.out<double>(o);
    std::fill_n(h, bins, 0.0);
    double l = lo, r = hi;
    if (l == r && n > 0) {  // the data's own range
      l = std::numeric_limits<double>::infinity();
      r = -l;
      for (int64_t i = 0; i < n; ++i)
        if (!std::isnan(x[i])) {
          l = std::min(l, x[i]);
          r = std::max(r, x[i]);
        }
    }
    if (l == r) {  // PyTorch widens an empty range by one on each side
      l -= 1;
      r += 1;
    }
    for (int64_t i = 0; i < n; ++i) {
      const double v = x[i];
      if (!(v >= l && v <= r)) continue;
      int64_t k = static_cast<int64_t>((v - l) * static_cast<double>(bins) / (r - l));
      if (k >= bins) k = bins - 1;
      h[k] += 1;
    }
  });
}

// ---- RepeatInterleaveGrad --------------------------------------------------------------------------------

void plan_repeat_grad(OpBuilder& b, const aclTensor* grad_arg, const aclTensor* repeats_arg, int64_t axis,
                      const aclTensor* out_arg) {
  const aclTensor& grad = b.input(grad_arg, "yGrad");
  const aclTensor& rep = b.input(repeats_arg, "repeats");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "yGrad", grad.dtype, dtype_mask({DType::kFloat16, DType::kBFloat16, DType::kFloat}));
  check_dtype_in(b.op(), "repeats", rep.dtype, kIndexDTypes);
  if (out.dtype != grad.dtype)
    invalid("out has dtype {}, expected the dtype of yGrad ({})", dtype_name(out.dtype), dtype_name(grad.dtype));
  check_rank(grad, "yGrad", kMaxRank);
  if (rep.dim() > 1) invalid("repeats has {} dims ({}), expected a 0-d or 1-d tensor", rep.dim(), dims_str(rep.view));
  if (rep.numel() == 0) invalid("repeats is empty");
  const int64_t ax = wrap_dim(axis, grad.dim(), "axis");
  const Dims gshape = grad.view.empty() ? Dims{1} : grad.view;
  const int64_t size = gshape[static_cast<size_t>(ax)];
  const int64_t outer = prod(gshape, 0, static_cast<size_t>(ax)), inner = prod(gshape, static_cast<size_t>(ax) + 1, gshape.size());
  const int64_t n_rep = rep.numel();
  int64_t groups = n_rep;
  if (n_rep == 1) {  // one repeat value r for every entry: size / r groups (r known at run time)
    if (outer * inner == 0) groups = 0;
    else groups = out.numel() / (outer * inner);
  }
  if (out.numel() != outer * groups * inner)
    invalid("out has {} elements ({}), expected yGrad's with axis {} reduced to {} entries ({})", out.numel(),
            dims_str(out.view), ax, groups, outer * groups * inner);
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int g = p.input(grad, DType::kFloat);
  const int ri = p.input(rep, DType::kInt64);
  const int o = p.output(out, DType::kFloat);
  p.finish(std::string("index.repeat_interleave_grad.") + dtype_name(grad.dtype), [=](const DenseArgs& a) {
    const int64_t* r = a.in<int64_t>(ri);
    int64_t sum = 0;
    for (int64_t k = 0; k < n_rep; ++k) {
      if (r[k] < 0)
        throw InvalidArgument(fmt::format("aclnnRepeatInterleaveGrad: repeats[{}] is {}, expected a value >= 0", k, r[k]));
      sum += r[k];
    }
    if (n_rep == 1) sum = r[0] * groups;
    if (sum != size)
      throw InvalidArgument(fmt::format("aclnnRepeatInterleaveGrad: the repeats cover {} entries but yGrad.shape[{}] "
                                        "is {}",
                                        sum, ax, size));
    const float* x = a.in<float>(g);
    float* y = a.out<float>(o);
    std::fill_n(y, outer * groups * inner, 0.0f);
    for (int64_t q = 0; q < outer; ++q) {
      int64_t e = 0;
      for (int64_t k = 0; k < groups; ++k) {
        const int64_t c = r[n_rep == 1 ? 0 : k];
        for (int64_t j = 0; j < c; ++j, ++e)
          for (int64_t i = 0; i < inner; ++i) y[(q * groups + k) * inner + i] += x[(q * size + e) * inner + i];
      }
    }
  });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnBincountGetWorkspaceSize(const aclTensor* self, const aclTensor* weights, int64_t minlength,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Bincount, "aclnnBincountGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_bincount(b, self, weights, minlength, out); });
}

aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor* self, int64_t bins, const aclScalar* min, const aclScalar* max,
                                       aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Histc, "aclnnHistcGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_histc(b, self, bins, min, max, out); });
}

aclnnStatus aclnnRepeatInterleaveGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* repeats, int64_t axis,
                                                      const aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RepeatInterleaveGrad, "aclnnRepeatInterleaveGradGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) { pacl::plan_repeat_grad(b, yGrad, repeats, axis, out); });
}

}  // extern "C"
