// TransQuantParam(V2, V3): float32 scale (+ optional offset) -> the 64-bit quant parameter word
// the matmul hardware reads:
//   out = (bits(scale) & 0xFFFFE000) | 1 << 46        (scale kept to its high 19 bits, "FP19")
//   out |= (clamp(rint(offset), -256, 255) & 0x1FF) << 37   when offset is given
// V3 roundMode 1 rounds the FP32 scale to FP19 (nearest, ties to even on the 13 dropped bits)
// instead of truncating. V1 is a host function returning a calloc'ed array padded to a multiple
// of 16 entries (unless it has one entry); the caller free()s it.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "aclnnop/aclnn_trans_quant_param_v3.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr uint64_t kQuantScale = uint64_t{1} << 46;

uint64_t scale_word(float scale, bool round_fp19) {
  uint32_t u;
  std::memcpy(&u, &scale, sizeof u);
  if (!round_fp19) return (u & 0xFFFFE000u) | kQuantScale;
  const uint32_t sign = u >> 31, exponent = (u >> 23) & 0xFFu, mantissa = u & 0x7FFFFFu;
  uint32_t m19 = mantissa >> 13, e = exponent;
  uint32_t fp19;
  if (e == 0) {
    fp19 = sign << 18;  // zero and subnormals flush to a signed zero
  } else if (e == 0xFFu) {
    fp19 = (sign << 18) | (e << 10) | m19;  // Inf/NaN kept truncated
  } else {
    const uint32_t round_bit = (mantissa >> 12) & 1u, sticky = mantissa & 0xFFFu;
    if (round_bit && (sticky || (m19 & 1u))) {
      if (++m19 == (1u << 10)) {
        m19 = 0;
        ++e;
      }
    }
    fp19 = (sign << 18) | (e << 10) | m19;  // e == 0xFF: rounded up to Inf
  }
  return (static_cast<uint64_t>(fp19) << 13) | kQuantScale;
}

uint64_t offset_bits(float offset) {
  const double r = std::isnan(offset) ? 0.0 : std::nearbyint(static_cast<double>(offset));
  const int64_t v = static_cast<int64_t>(std::max(-256.0, std::min(255.0, r)));
  return (static_cast<uint64_t>(v) & 0x1FFu) << 37;
}

void plan_trans(OpBuilder& b, const aclTensor* scale_arg, const aclTensor* offset_arg, int64_t round_mode,
                const aclTensor* out_arg) {
  const aclTensor& scale = b.input(scale_arg, "scale");
  const aclTensor* offset = offset_arg ? &b.input(offset_arg, "offset") : nullptr;
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "scale", scale.dtype, dtype_mask({DType::kFloat}));
  if (offset) check_dtype_in(b.op(), "offset", offset->dtype, dtype_mask({DType::kFloat}));
  check_dtype_in(b.op(), "out", out.dtype, dtype_mask({DType::kUInt64, DType::kInt64}));
  if (round_mode != 0 && round_mode != 1) invalid("roundMode is {}, expected 0 or 1", round_mode);
  if (scale.dim() < 1 || scale.dim() > 2) invalid("scale has {} dims, expected 1 or 2", scale.dim());
  if (scale.numel() == 0) invalid("scale is empty, expected at least one element");
  Dims want = scale.view;
  const int64_t sn = scale.numel();
  int64_t on = 0;
  if (offset) {
    if (offset->dim() < 1 || offset->dim() > 2) invalid("offset has {} dims, expected 1 or 2", offset->dim());
    on = offset->numel();
    if (on == 0) invalid("offset is empty, expected at least one element");
    if (sn != 1 && on != 1 && sn != on)
      invalid("offset has {} elements, expected 1 or the {} of scale {}", on, sn, dims_str(scale.view));
    if (scale.dim() == 1) {
      want = Dims{std::max(sn, on)};
    } else if (on != 1 && on != sn) {
      invalid("offset has {} elements, expected 1 or {} for a 2-d scale {}", on, sn, dims_str(scale.view));
    }
  }
  check_shape_equals(out, "out", want, offset ? "(from scale and offset)" : "scale's shape");
  DensePlan p(b);
  const int si = p.input(scale, DType::kFloat);
  const int oi = offset ? p.input(*offset, DType::kFloat) : -1;
  const int yi = p.output(out, out.dtype);
  const int64_t n = out.numel();
  const bool round19 = round_mode == 1;
  p.finish("quant.trans_quant_param", [=](const DenseArgs& a) {
    const float* s = a.in<float>(si);
    const float* o = oi >= 0 ? a.in<float>(oi) : nullptr;
    uint64_t* y = a.out<uint64_t>(yi);  // int64 and uint64 share the bit pattern
    for (int64_t i = 0; i < n; ++i) {
      uint64_t w = scale_word(s[sn == 1 ? 0 : i], round19);
      if (o) w |= offset_bits(o[on == 1 ? 0 : i]);
      y[i] = w;
    }
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleSize, const float* offsetArray,
                                            uint64_t offsetSize, uint64_t** quantParam, uint64_t* quantParamSize) {
  return pacl::nn_call("aclnnTransQuantParam", [&] {
    if (!scaleArray) throw pacl::NullArgument("argument 'scaleArray' is null");
    if (scaleSize == 0) pacl::invalid("scaleSize is 0, expected at least 1");
    if (offsetArray && offsetSize == 0) pacl::invalid("offsetSize is 0, expected at least 1 when offsetArray is given");
    if (!offsetArray && offsetSize != 0) pacl::invalid("offsetSize is {}, expected 0 when offsetArray is null", offsetSize);
    if (!quantParam) throw pacl::NullArgument("argument 'quantParam' is null");
    if (!quantParamSize) throw pacl::NullArgument("argument 'quantParamSize' is null");
    uint64_t n = std::max(scaleSize, offsetSize);
    if (n != 1 && n % 16 != 0) n += 16 - n % 16;
    auto* out = static_cast<uint64_t*>(std::calloc(n, sizeof(uint64_t)));
    if (!out) throw std::bad_alloc();
    for (uint64_t i = 0; i < scaleSize; ++i) out[i] = pacl::scale_word(scaleArray[i], false);
    for (uint64_t i = 0; offsetArray && i < offsetSize; ++i)
      out[i] = (out[i] & 0x4000FFFFFFFFull) | pacl::offset_bits(offsetArray[i]);
    *quantParam = out;
    *quantParamSize = n;
  });
}

extern "C" aclnnStatus aclnnTransQuantParamV2GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                              const aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TransQuantParamV2, "aclnnTransQuantParamV2GetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) { pacl::plan_trans(b, scale, offset, 0, out); });
}

extern "C" aclnnStatus aclnnTransQuantParamV3GetWorkspaceSize(const aclTensor* scale, const aclTensor* offset,
                                                              int64_t roundMode, const aclTensor* out,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TransQuantParamV3, "aclnnTransQuantParamV3GetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) { pacl::plan_trans(b, scale, offset, roundMode, out); });
}
