#include "ops/binary_args.h"

namespace pacl {

BinaryArgs check_binary(OpBuilder& b, BinaryInput a, BinaryInput other, const aclTensor* out, bool inplace,
                        const BinaryMasks& masks) {
  BinaryArgs x;
  // Null checks (161001) in parameter order.
  const BinaryInput in[2] = {a, other};
  for (size_t k = 0; k < 2; ++k) {
    x.name[k] = in[k].name;
    if (in[k].is_scalar) x.s[k] = &b.scalar(in[k].scalar, in[k].name);
    else x.t[k] = (k == 0 && inplace) ? &b.inout(in[k].tensor, in[k].name) : &b.input(in[k].tensor, in[k].name);
  }
  if (inplace) {
    x.out = x.t[0];
    x.out_name = x.name[0];
  } else {
    x.out = &b.output(out, "out");
  }
  // Dtypes.
  check_dtype_in(b.op(), x.name[0], x.dtype(0), masks.a);
  check_dtype_in(b.op(), x.name[1], x.dtype(1), masks.b);
  if (!inplace) check_dtype_in(b.op(), "out", x.out->dtype, masks.out);
  // Ranks and shapes.
  for (size_t k = 0; k < 2; ++k)
    if (x.t[k]) check_rank(*x.t[k], x.name[k]);
  if (x.t[0] && x.t[1]) {
    x.shape = broadcast_shapes(x.t[0]->view, x.name[0], x.t[1]->view, x.name[1]);
    if (inplace && x.shape != x.t[0]->view)
      invalid("{} has shape {} but broadcasting with {} {} gives {}; an in-place result cannot be broadcast", x.name[0],
              dims_str(x.t[0]->view), x.name[1], dims_str(x.t[1]->view), dims_str(x.shape));
  } else {
    x.shape = x.t[0] ? x.t[0]->view : x.t[1]->view;
  }
  if (!inplace) check_shape_equals(*x.out, "out", x.shape);
  return x;
}

void check_result_in(const OpInfo& op, const char* what, DType t, DTypeMask allowed) {
  if (!in_mask(allowed, t))
    invalid("{} dtype {} is not supported by aclnn{}; supported: {}", what, dtype_name(t), op.name, mask_names(allowed));
}

}  // namespace pacl
