// SwiGluQuant(V2) and DynamicBlockQuant(V2).
//   SwiGluQuant: x [..., 2N] splits into A (the activated half: the first when activateLeft) and B;
//     act = A / (1 + exp(-A)) * B; rows [g[e-1], g[e]) use smooth/offset row e (rows past the last
//     group end use neither). dynamic: t = act * smooth; scaleOut = dtypeMax / max|t|;
//     y = rint(t * scaleOut). static: y = rint(act * smooth + offset) (scaleOut untouched).
//   DynamicBlockQuant: per block of rowBlockSize x colBlockSize over x's last two dims:
//     scaleOut = min(max|x| / 127, 1 / minScale); y = rint(x / scaleOut).
// float32 arithmetic in CANN's kernel order; y saturates, NaN -> 0.
#include <algorithm>
#include <cmath>
#include <string>

#include "aclnnop/aclnn_dynamic_block_quant.h"
#include "aclnnop/aclnn_dynamic_block_quant_v2.h"
#include "aclnnop/aclnn_swi_glu_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/quant/quant_common.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kFloat3 = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});

void plan_swiglu_quant(OpBuilder& b, const aclTensor* x_arg, const aclTensor* smooth_arg, const aclTensor* offsets_arg,
                       const aclTensor* group_arg, bool activate_left, const char* mode, int64_t group_list_type,
                       int64_t dst_type, const aclTensor* y_arg, const aclTensor* scale_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor* smooth = smooth_arg ? &b.input(smooth_arg, "smoothScalesOptional") : nullptr;
  const aclTensor* offsets = offsets_arg ? &b.input(offsets_arg, "offsetsOptional") : nullptr;
  const aclTensor* group = group_arg ? &b.input(group_arg, "groupIndexOptional") : nullptr;
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& scale = b.output(scale_arg, "scaleOut");
  bool dynamic = true;
  if (mode != nullptr) {
    const std::string m(mode);
    if (m == "static") dynamic = false;
    else if (m == "dynamic_msd") unsupported("quantModeOptional \"dynamic_msd\" is not supported by pacl yet");
    else if (m != "dynamic") invalid("quantModeOptional is \"{}\", expected \"dynamic\" or \"static\"", m);
  }
  if (group_list_type != 0 && group_list_type != 1)
    invalid("groupListType is {}, expected 0 (cumsum) or 1 (count)", group_list_type);
  if (dst_type == 29) unsupported("dstType 29 (int4) is not supported by pacl yet; supported: 2 (int8)");
  if (dst_type != 2) invalid("dstType is {}, expected 2 (int8) or 29 (int4)", dst_type);
  check_dtype_in(b.op(), "x", x.dtype, kFloat3);
  check_dtype_in(b.op(), "yOut", y.dtype, dtype_mask({DType::kInt8}));
  check_dtype_in(b.op(), "scaleOut", scale.dtype, dtype_mask({DType::kFloat}));
  if (x.dim() < 2 || x.dim() > 8) invalid("x has {} dims, expected 2 to 8", x.dim());
  if (x.view.back() % 2 != 0) invalid("x has shape {}, expected an even last dim", dims_str(x.view));
  const int64_t n = x.view.back() / 2;
  Dims ys = x.view;
  ys.back() = n;
  check_shape_equals(y, "yOut", ys, "x's shape with the last dim halved");
  const Dims rs(x.view.begin(), x.view.end() - 1);
  check_shape_equals(scale, "scaleOut", rs, "x's shape without its last dim");
  int64_t groups = 1;
  if (group) {
    check_dtype_in(b.op(), "groupIndexOptional", group->dtype, dtype_mask({DType::kInt32}));
    if (group->dim() != 1) invalid("groupIndexOptional has {} dims, expected 1", group->dim());
    groups = group->view[0];
  }
  bool per_channel = true;
  if (smooth) {
    check_dtype_in(b.op(), "smoothScalesOptional", smooth->dtype, dtype_mask({DType::kFloat}));
    if (smooth->dim() == 2 && smooth->view[0] == groups && smooth->view[1] == n) per_channel = true;
    else if (smooth->dim() == 1 && smooth->view[0] == groups) per_channel = false;
    else
      invalid("smoothScalesOptional has shape {}, expected [{}, {}] or [{}] (groups, half of x's last dim)",
              dims_str(smooth->view), groups, n, groups);
  }
  if (!dynamic) {
    if (!smooth || !offsets) invalid("quantModeOptional \"static\" needs smoothScalesOptional and offsetsOptional");
    if (offsets->dtype != smooth->dtype || offsets->view != smooth->view)
      invalid("offsetsOptional is {}, expected the dtype and shape of smoothScalesOptional ({})", offsets->describe(),
              smooth->describe());
  }
  const int64_t rows = x.numel() / x.view.back();
  if (rows == 0 || n == 0) return;
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int si = smooth ? p.input(*smooth, DType::kFloat) : -1;
  const int oi = (!dynamic && offsets) ? p.input(*offsets, DType::kFloat) : -1;
  const int gi = group ? p.input(*group, DType::kInt32) : -1;
  const int yi = p.output(y, DType::kInt8);
  const int sci = dynamic ? p.output(scale, DType::kFloat) : -1;
  const size_t buf = p.scratch(static_cast<size_t>(n) * sizeof(float));
  const size_t ends_buf = p.scratch(static_cast<size_t>(groups) * sizeof(int64_t));
  p.finish(dynamic ? "quant.swiglu_quant.dynamic" : "quant.swiglu_quant.static", [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    float* t = a.scratch<float>(buf);
    int64_t* ends = a.scratch<int64_t>(ends_buf);
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t v = gi >= 0 ? a.in<int32_t>(gi)[g] : rows;
      ends[g] = (group_list_type == 1 && g > 0) ? ends[g - 1] + v : v;
    }
    int64_t e = 0;
    for (int64_t r = 0; r < rows; ++r) {
      while (e < groups && ends[e] < r + 1) ++e;  // the first group whose end passes row r
      const float* row = xv + r * 2 * n;
      const float* av = activate_left ? row : row + n;
      const float* bv = activate_left ? row + n : row;
      for (int64_t j = 0; j < n; ++j) t[j] = av[j] / (1.0f + std::exp(-av[j])) * bv[j];
      if (e < groups && si >= 0) {
        const float* s = a.in<float>(si) + (per_channel ? e * n : e);
        const float* o = oi >= 0 ? a.in<float>(oi) + (per_channel ? e * n : e) : nullptr;
        for (int64_t j = 0; j < n; ++j) {
          t[j] *= per_channel ? s[j] : s[0];
          if (o) t[j] += per_channel ? o[j] : o[0];
        }
      }
      int8_t* out = a.out<int8_t>(yi) + r * n;
      float q = 1.0f;
      if (sci >= 0) {
        float m = 0.0f;
        for (int64_t j = 0; j < n; ++j) m = (std::isnan(t[j]) || std::isnan(m)) ? NAN : std::max(m, std::fabs(t[j]));
        q = 127.0f / m;
        a.out<float>(sci)[r] = q;
      }
      for (int64_t j = 0; j < n; ++j)
        out[j] = static_cast<int8_t>(quant::round_sat(sci >= 0 ? t[j] * q : t[j], quant::Round::kRint, -128, 127));
    }
  });
}

void plan_block_quant(OpBuilder& b, const aclTensor* x_arg, double min_scale, const char* round_mode,
                      int64_t dst_type, int64_t row_block, int64_t col_block, double dst_type_max,
                      const aclTensor* y_arg, const aclTensor* scale_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& y = b.output(y_arg, "yOut");
  const aclTensor& scale = b.output(scale_arg, "scaleOut");
  check_dtype_in(b.op(), "x", x.dtype, kFloat3);
  if (dst_type == 34 || dst_type == 35 || dst_type == 36)
    unsupported("dstType {} ({}) is not supported by pacl yet; supported: 2 (int8)", dst_type,
                dtype_name(static_cast<DType>(dst_type)));
  if (dst_type != 2) invalid("dstType is {}, expected 2 (int8), 34, 35 or 36", dst_type);
  quant::check_dst_type(y, "yOut", dst_type);
  if (round_mode != nullptr && std::string(round_mode) != "rint")
    invalid("roundModeOptional is \"{}\", expected \"rint\" for an int8 yOut", round_mode);
  if (!(min_scale >= 0)) invalid("minScale is {}, expected a value >= 0", min_scale);
  if (dst_type_max != 0.0) invalid("dstTypeMax is {}, expected 0 for an int8 yOut", dst_type_max);
  const int64_t rb_ok[] = {1, 64, 128, 256, 512}, cb_ok[] = {1, 64, 128, 192, 256};
  if (std::find(std::begin(rb_ok), std::end(rb_ok), row_block) == std::end(rb_ok))
    invalid("rowBlockSize is {}, expected one of 1, 64, 128, 256, 512", row_block);
  if (std::find(std::begin(cb_ok), std::end(cb_ok), col_block) == std::end(cb_ok))
    invalid("colBlockSize is {}, expected one of 1, 64, 128, 192, 256", col_block);
  check_dtype_in(b.op(), "scaleOut", scale.dtype, dtype_mask({DType::kFloat}));
  if (x.dim() != 2 && x.dim() != 3) invalid("x has {} dims, expected 2 ([M, N]) or 3 ([B, M, N])", x.dim());
  if (x.numel() == 0) invalid("x is empty, expected at least one element");
  check_shape_equals(y, "yOut", x.view, "x's shape");
  const int64_t batch = x.dim() == 3 ? x.view[0] : 1, m = x.view[x.dim() - 2], n = x.view[x.dim() - 1];
  const int64_t mb = (m + row_block - 1) / row_block, nb = (n + col_block - 1) / col_block;
  const Dims ss = x.dim() == 3 ? Dims{batch, mb, nb} : Dims{mb, nb};
  check_shape_equals(scale, "scaleOut", ss, "[(B,) ceil(M / rowBlockSize), ceil(N / colBlockSize)]");
  const float inv_min = static_cast<float>(1.0 / min_scale);
  DensePlan p(b);
  const int xi = p.input(x, DType::kFloat);
  const int yi = p.output(y, DType::kInt8);
  const int si = p.output(scale, DType::kFloat);
  p.finish("quant.dynamic_block_quant", [=](const DenseArgs& a) {
    const float* xv = a.in<float>(xi);
    int8_t* yv = a.out<int8_t>(yi);
    float* sv = a.out<float>(si);
    for (int64_t bt = 0; bt < batch; ++bt)
      for (int64_t i = 0; i < mb; ++i)
        for (int64_t j = 0; j < nb; ++j) {
          const int64_t r0 = i * row_block, r1 = std::min(m, r0 + row_block);
          const int64_t c0 = j * col_block, c1 = std::min(n, c0 + col_block);
          float mx = 0.0f;
          for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = c0; c < c1; ++c) {
              const float v = std::fabs(xv[(bt * m + r) * n + c]);
              mx = (std::isnan(v) || std::isnan(mx)) ? NAN : std::max(mx, v);
            }
          const float s = std::isnan(mx) ? mx : std::min(mx / 127.0f, inv_min);
          sv[(bt * mb + i) * nb + j] = s;
          for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = c0; c < c1; ++c) {
              const int64_t k = (bt * m + r) * n + c;
              yv[k] = static_cast<int8_t>(quant::round_sat(xv[k] / s, quant::Round::kRint, -128, 127));
            }
        }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnSwiGluQuantGetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                                        const aclTensor* offsetsOptional,
                                                        const aclTensor* groupIndexOptional, bool activateLeft,
                                                        char* quantModeOptional, const aclTensor* yOut,
                                                        const aclTensor* scaleOut, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SwiGluQuant, "aclnnSwiGluQuantGetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_swiglu_quant(b, x, smoothScalesOptional, offsetsOptional, groupIndexOptional,
                                                    activateLeft, quantModeOptional, 0, 2, yOut, scaleOut);
                          });
}

extern "C" aclnnStatus aclnnSwiGluQuantV2GetWorkspaceSize(const aclTensor* x, const aclTensor* smoothScalesOptional,
                                                          const aclTensor* offsetsOptional,
                                                          const aclTensor* groupIndexOptional, bool activateLeft,
                                                          char* quantModeOptional, int64_t groupListType,
                                                          int64_t dstType, const aclTensor* yOut,
                                                          const aclTensor* scaleOut, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_SwiGluQuantV2, "aclnnSwiGluQuantV2GetWorkspaceSize", workspaceSize, executor,
                          [&](pacl::OpBuilder& b) {
                            pacl::plan_swiglu_quant(b, x, smoothScalesOptional, offsetsOptional, groupIndexOptional,
                                                    activateLeft, quantModeOptional, groupListType, dstType, yOut,
                                                    scaleOut);
                          });
}

extern "C" aclnnStatus aclnnDynamicBlockQuantGetWorkspaceSize(const aclTensor* x, double minScale,
                                                              char* roundModeOptional, int64_t dstType,
                                                              int64_t rowBlockSize, int64_t colBlockSize,
                                                              const aclTensor* yOut, const aclTensor* scaleOut,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DynamicBlockQuant, "aclnnDynamicBlockQuantGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_block_quant(b, x, minScale, roundModeOptional, dstType, rowBlockSize,
                                                   colBlockSize, 0.0, yOut, scaleOut);
                          });
}

extern "C" aclnnStatus aclnnDynamicBlockQuantV2GetWorkspaceSize(const aclTensor* x, double minScale,
                                                                char* roundModeOptional, int64_t dstType,
                                                                int64_t rowBlockSize, int64_t colBlockSize,
                                                                double dstTypeMax, const aclTensor* yOut,
                                                                const aclTensor* scaleOut, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_DynamicBlockQuantV2, "aclnnDynamicBlockQuantV2GetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_block_quant(b, x, minScale, roundModeOptional, dstType, rowBlockSize,
                                                   colBlockSize, dstTypeMax, yOut, scaleOut);
                          });
}
