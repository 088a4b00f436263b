// Sliding windows as pieces: Im2col (one strided copy per kernel offset (ki, kj), over the output
// positions whose input lies inside the image, after a zero fill when padding reaches outside) and
// UnfoldGrad (one accumulating piece per window offset k: gradIn[.., w*step + k, ..] += gradOut[.., w, .., k]).
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_unfold_grad.h"
#include "core/phase.h"
#include "ops/dims.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kIm2colTypes = kAllTypes | dtype_mask({DType::kUInt16, DType::kUInt32, DType::kUInt64, DType::kComplex64});

// The output positions o in [0, n_out) with 0 <= o*stride + off < n_in: [*lo, *hi).
void valid_range(int64_t n_out, int64_t n_in, int64_t stride, int64_t off, int64_t* lo, int64_t* hi) {
  auto ceil_div = [](int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); };
  auto floor_div = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  *lo = std::max<int64_t>(0, ceil_div(-off, stride));
  *hi = std::min<int64_t>(n_out, floor_div(n_in - 1 - off, stride) + 1);
  if (*hi < *lo) *hi = *lo;
}

void plan_im2col(OpBuilder& b, const aclTensor* self_arg, const aclIntArray* k_arg, const aclIntArray* d_arg,
                 const aclIntArray* p_arg, const aclIntArray* s_arg, const aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclIntArray& ks = b.int_array(k_arg, "kernelSize");
  const aclIntArray& ds = b.int_array(d_arg, "dilation");
  const aclIntArray& ps = b.int_array(p_arg, "padding");
  const aclIntArray& ss = b.int_array(s_arg, "stride");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kIm2colTypes);
  check_same_dtype(out, "out", self, "self");
  check_rank_between(self, "self", 3, 4);
  const aclIntArray* arrays[] = {&ks, &ds, &ps, &ss};
  const char* names[] = {"kernelSize", "dilation", "padding", "stride"};
  for (int k = 0; k < 4; ++k) {  // the same array may be passed twice: the rule goes by position
    const Dims& v = arrays[k]->values;
    const bool pad = k == 2;
    if (v.size() != 2) invalid("{} {} has {} entries, expected 2 (H, W)", names[k], list_str(v), v.size());
    for (int64_t x : v)
      if (pad ? x < 0 : x <= 0)
        invalid("{} {} has the value {}, expected values {}", names[k], list_str(v), x, pad ? ">= 0" : "> 0");
  }
  const bool batched = self.dim() == 4;
  const int64_t n = batched ? self.view[0] : 1, c = self.view[batched ? 1 : 0];
  const int64_t h = self.view[self.view.size() - 2], w = self.view.back();
  const int64_t kh = ks.values[0], kw = ks.values[1], dh = ds.values[0], dw = ds.values[1];
  const int64_t ph = ps.values[0], pw = ps.values[1], sh = ss.values[0], sw = ss.values[1];
  const int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1, ow = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
  if (h + 2 * ph - dh * (kh - 1) - 1 < 0 || w + 2 * pw - dw * (kw - 1) - 1 < 0)
    invalid("the dilated kernel {} does not fit the padded input {} x {}", list_str(ks.values), h + 2 * ph, w + 2 * pw);
  const int64_t l = oh * ow;
  check_shape_equals(out, "out", batched ? Dims{n, c * kh * kw, l} : Dims{c * kh * kw, l}, "the im2col shape");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand src = pp.source(self), dst = pp.dest(out);
  const int64_t sn = batched ? self.strides[0] : 0, sc = self.strides[batched ? 1 : 0];
  const int64_t sH = self.strides[self.strides.size() - 2], sW = self.strides.back();
  const int64_t dn = batched ? dst.strides[0] : 0, drow = dst.strides[batched ? 1 : 0];
  bool all_inside = true;
  for (int64_t ki = 0; ki < kh; ++ki)
    for (int64_t kj = 0; kj < kw; ++kj) {
      int64_t h0, h1, w0, w1;
      valid_range(oh, h, sh, ki * dh - ph, &h0, &h1);
      valid_range(ow, w, sw, kj * dw - pw, &w0, &w1);
      all_inside &= h0 == 0 && h1 == oh && w0 == 0 && w1 == ow;
    }
  if (!all_inside) pp.fill_zero(dst, 0, {1}, {out.numel()});
  for (int64_t ki = 0; ki < kh; ++ki)
    for (int64_t kj = 0; kj < kw; ++kj) {
      int64_t h0, h1, w0, w1;
      valid_range(oh, h, sh, ki * dh - ph, &h0, &h1);
      valid_range(ow, w, sw, kj * dw - pw, &w0, &w1);
      const int64_t row = ki * kw + kj;
      const int64_t doff = row * drow + h0 * ow + w0;
      const int64_t soff = (h0 * sh + ki * dh - ph) * sH + (w0 * sw + kj * dw - pw) * sW;
      // (n, c, oh, ow): out row c*kh*kw + row, column oh*ow_n + ow.
      pp.copy(dst, doff, {dn, kh * kw * drow, ow, 1}, src, soff, {sn, sc, sh * sH, sw * sW}, {n, c, h1 - h0, w1 - w0});
    }
  pp.finish(fmt::format("im2col.{}", dtype_name(self.dtype)));
}

constexpr DTypeMask kUnfoldGradTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

void plan_unfold_grad(OpBuilder& b, const aclTensor* grad_out_arg, const aclIntArray* sizes_arg, int64_t dim,
                      int64_t size, int64_t step, const aclTensor* grad_in_arg) {
  const aclTensor& go = b.input(grad_out_arg, "gradOut");
  const aclIntArray& sizes = b.int_array(sizes_arg, "inputSizes");
  const aclTensor& gi = b.output(grad_in_arg, "gradIn");
  check_dtype_in(b.op(), "gradOut", go.dtype, kUnfoldGradTypes);
  check_same_dtype(gi, "gradIn", go, "gradOut");
  const Dims& in = sizes.values;
  if (in.size() > 8) invalid("inputSizes {} has {} dims, expected at most 8", list_str(in), in.size());
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i] < 0) invalid("inputSizes[{}] is {}, expected a size >= 0", i, in[i]);
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(in.size()), "dim");
  const int64_t sizedim = in.empty() ? 1 : in[static_cast<size_t>(d)];
  if (size <= 0 || size > sizedim)
    invalid("size is {}, expected a window size in [1, {}] (inputSizes[{}])", size, sizedim, d);
  if (step <= 0) invalid("step is {}, expected a step > 0", step);
  const int64_t windows = (sizedim - size) / step + 1;
  Dims want = in.empty() ? Dims{} : in;
  if (!want.empty()) want[static_cast<size_t>(d)] = windows;
  want.push_back(size);
  check_shape_equals(go, "gradOut", want, "inputSizes with dim unfolded");
  check_shape_equals(gi, "gradIn", in, "inputSizes");
  if (gi.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand g = pp.dense_source(go, DType::kFloat), r = pp.dest(gi, DType::kFloat);
  pp.fill_zero(r, 0, {1}, {gi.numel()});
  const size_t rank = in.size();
  Dims shape(want.begin(), want.end() - 1), gs(g.strides.begin(), g.strides.end() - 1), rs = r.strides;
  if (rank) rs[static_cast<size_t>(d)] *= step;
  for (int64_t k = 0; k < size; ++k)
    pp.accumulate(r, rank ? k * r.strides[static_cast<size_t>(d)] : 0, rs, g, k * g.strides.back(), gs, shape);
  pp.finish(fmt::format("unfold_grad.{}", dtype_name(go.dtype)));
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                   const aclIntArray* dilation, const aclIntArray* padding,
                                                   const aclIntArray* stride, const aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Im2col, "aclnnIm2colGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_im2col(b, self, kernelSize, dilation, padding, stride, out); });
}

extern "C" aclnnStatus aclnnUnfoldGradGetWorkspaceSize(const aclTensor* gradOut, const aclIntArray* inputSizes,
                                                       int64_t dim, int64_t size, int64_t step, const aclTensor* gradIn,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_UnfoldGrad, "aclnnUnfoldGradGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_unfold_grad(b, gradOut, inputSizes, dim, size, step, gradIn); });
}
