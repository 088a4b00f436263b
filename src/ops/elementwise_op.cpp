#include "ops/elementwise_op.h"

namespace pacl {

void check_dtype_supported(const OpInfo& op, const char* arg, DType t) {
  if (is_compute_dtype(t)) return;
  if (is_complex(t))
    unsupported("{} dtype {} is not supported by pacl's aclnn{} yet; supported: float32, float16, bfloat16, float64, "
                "int64, int32, int16, int8, uint8, bool",
                arg, dtype_name(t), op.name);
  invalid("{} dtype {} is not supported by aclnn{}; supported: float32, float16, bfloat16, float64, int64, int32, "
          "int16, int8, uint8, bool",
          arg, dtype_name(t), op.name);
}

std::string mask_names(DTypeMask m) {
  std::string s;
  for (int i = 0; i < 64; ++i)
    if ((m >> i) & 1u) {
      if (!s.empty()) s += ", ";
      s += dtype_name(static_cast<DType>(i));
    }
  return s;
}

void check_dtype_in(const OpInfo& op, const char* arg, DType t, DTypeMask allowed) {
  if (in_mask(allowed, t)) return;
  if (is_complex(t)) unsupported("{} dtype {} is not supported by pacl's aclnn{} yet; supported: {}", arg, dtype_name(t), op.name, mask_names(allowed));
  invalid("{} dtype {} is not supported by aclnn{}; supported: {}", arg, dtype_name(t), op.name, mask_names(allowed));
}

DType promote_tensor_scalar(DType self, DType scalar, DType out) {
  if (is_floating(self)) return self;
  if (scalar == DType::kDouble && out == DType::kFloat) return DType::kFloat;
  if (is_floating(scalar) || self == DType::kBool) return promote(self, scalar);
  return self;
}

void check_rank(const aclTensor& t, const char* arg, int64_t max_rank) {
  if (t.dim() > max_rank) invalid("{} has {} dims ({}); at most {} are supported", arg, t.dim(), t.describe(), max_rank);
}

void check_shape_equals(const aclTensor& t, const char* arg, const Dims& expected, const char* expected_what) {
  if (t.view != expected)
    invalid("{} has shape {}, expected {} {}", arg, dims_str(t.view), expected_what, dims_str(expected));
}

void check_can_cast(DType from, const aclTensor& to, const char* to_name) {
  if (!can_cast(from, to.dtype))
    invalid("the result dtype {} cannot be cast to the dtype {} of {}", dtype_name(from), dtype_name(to.dtype), to_name);
}

template <size_t N>
ElementwiseOperands<N> plan_operands(OpBuilder& b, DType compute, const aclTensor& out,
                                     const std::array<EwInput, N>& inputs) {
  ElementwiseOperands<N> r;
  const DType arith = arithmetic_dtype(compute);
  std::vector<Dims> strides;
  strides.reserve(N + 1);
  strides.push_back(out.strides);
  for (size_t k = 0; k < N; ++k) {
    if (inputs[k].tensor) {
      const aclTensor& t = *inputs[k].tensor;
      const bool round = arith != compute && t.dtype != compute;
      r.sources[k] = OperandSource{b.slot_of(t), t.dtype, round ? compute : DType::kUndefined};
      if (inputs[k].element >= 0) {
        int64_t rest = inputs[k].element, offset = 0;
        for (size_t d = t.view.size(); d-- > 0;) {
          offset += rest % t.view[d] * t.strides[d];
          rest /= t.view[d];
        }
        r.sources[k].offset = offset;
        strides.push_back(Dims(out.view.size(), 0));
      } else {
        strides.push_back(broadcast_strides(t, out.view));
      }
    } else {
      const aclScalar& s = *inputs[k].scalar;
      alignas(8) unsigned char in_compute[16] = {};
      convert_strided(compute, in_compute, 1, s.dtype, s.bytes, 1, 1);
      convert_strided(arith, r.constants[k].data(), 1, compute, in_compute, 1, 1);
      r.sources[k] = OperandSource{-1, arith};
      strides.push_back(Dims(out.view.size(), 0));
    }
  }
  r.geometry = merge_dims(out.view, std::move(strides));
  return r;
}

template ElementwiseOperands<1> plan_operands<1>(OpBuilder&, DType, const aclTensor&, const std::array<EwInput, 1>&);
template ElementwiseOperands<2> plan_operands<2>(OpBuilder&, DType, const aclTensor&, const std::array<EwInput, 2>&);
template ElementwiseOperands<3> plan_operands<3>(OpBuilder&, DType, const aclTensor&, const std::array<EwInput, 3>&);
template ElementwiseOperands<4> plan_operands<4>(OpBuilder&, DType, const aclTensor&, const std::array<EwInput, 4>&);

}  // namespace pacl
