// Matrix-vector, dot and outer products, all through plan_matmul:
//   Mv      out = self @ vec                         self [n, m], vec [m], out [n]   (float32/16, bfloat16)
//   Addmv   out = beta * self + alpha * (mat @ vec)  self broadcasts to [n]          (+ integers, bool, float64)
//   Dot     out = sum_i self[i] * tensor[i]          0-d out
//   Ger     out = self (outer) vec2                  out [n, m]
//   Addr    out = beta * self + alpha * (vec1 (outer) vec2), self broadcasts to [n, m]; InplaceAddr
// Float16/bfloat16 compute in float32; integers wrap like PyTorch's (modular arithmetic of the result
// dtype); bool is "any": beta && self || alpha && (some product is true).
#include "aclnnop/aclnn_addmv.h"
#include "aclnnop/aclnn_addr.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_mv.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/gemm.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kCubeTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr DTypeMask kDotTypes =
    dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt8, DType::kInt32, DType::kUInt8});
constexpr DTypeMask kGerTypes = kAllTypes;  // CANN also lists complex64/128: not supported by pacl yet

void check_dims(const aclTensor& t, const char* name, int64_t lo, int64_t hi) {
  if (t.dim() < lo || t.dim() > hi) {
    if (lo == hi) invalid("{} has {} dims ({}), expected {}", name, t.dim(), t.describe(), lo);
    invalid("{} has {} dims ({}), expected {} to {}", name, t.dim(), t.describe(), lo, hi);
  }
}

void check_same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name) {
  if (t.dtype != ref.dtype)
    invalid("{} has dtype {}, expected the dtype of {} ({})", name, dtype_name(t.dtype), ref_name,
            dtype_name(ref.dtype));
}

void check_len(int64_t got, const aclTensor& t, const char* name, int64_t want, const char* what) {
  if (got != want) invalid("{} has shape {}, expected {} elements to match {}", name, dims_str(t.view), want, what);
}

// The dtype products compute in: float for the 16-bit floats.
DType compute_of(DType t) { return (t == DType::kFloat16 || t == DType::kBFloat16) ? DType::kFloat : t; }

// alpha / beta of an integral or bool result: PyTorch rejects floating coefficients, and bool ones
// unless the result is bool.
void check_coefficient(const aclScalar* s, const char* name, DType result) {
  if (!s) return;
  if (s->dtype == DType::kBool && result != DType::kBool)
    invalid("{} is a bool scalar; bool coefficients are only supported for bool results (the result dtype is {})",
            name, dtype_name(result));
  if (!is_floating(result) && (is_floating(s->dtype) || is_complex(s->dtype)))
    invalid("{} is a {} scalar; integral and bool inputs need an integral or bool {}", name, dtype_name(s->dtype),
            name);
}

void set_coefficients(MatmulProblem& prob, const aclScalar* beta, const aclScalar* alpha) {
  prob.beta = beta ? beta->to_double() : 1.0;
  prob.alpha = alpha ? alpha->to_double() : 1.0;
  prob.beta_i = beta ? (beta->dtype == DType::kBool ? beta->to_bool() : beta->to_int64()) : 1;
  prob.alpha_i = alpha ? (alpha->dtype == DType::kBool ? alpha->to_bool() : alpha->to_int64()) : 1;
}

void finish_product(OpBuilder& b, MatmulProblem& prob, const std::string& name) {
  if (prob.c->numel() == 0) return;
  DensePlan p(b);
  plan_matmul(p, prob, name);
}

// ---- Mv / Addmv ----------------------------------------------------------------------------------------

void plan_mv(OpBuilder& b, const aclTensor* self_arg, const aclTensor* vec_arg, aclTensor* out_arg, int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& vec = b.input(vec_arg, "vec");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kCubeTypes);
  check_same_dtype(vec, "vec", self, "self");
  check_same_dtype(out, "out", self, "self");
  check_dims(self, "self", 2, 2);
  check_dims(vec, "vec", 1, 1);
  check_len(vec.view[0], vec, "vec", self.view[1], "the columns of self");
  check_shape_equals(out, "out", {self.view[0]}, "self @ vec's shape");
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.m = self.view[0];
  prob.k = self.view[1];
  prob.n = 1;
  prob.a = &self;
  prob.a_map.dims = {0, 1};
  prob.b = &vec;
  prob.b_map.dims = {0, -1};
  prob.c = &out;
  prob.c_map.dims = {0, -1};
  prob.compute = DType::kFloat;
  finish_product(b, prob, "mv");
}

void plan_addmv(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mat_arg, const aclTensor* vec_arg,
                const aclScalar* alpha_arg, const aclScalar* beta_arg, aclTensor* out_arg, int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& mat = b.input(mat_arg, "mat");
  const aclTensor& vec = b.input(vec_arg, "vec");
  const aclScalar& alpha = b.scalar(alpha_arg, "alpha");
  const aclScalar& beta = b.scalar(beta_arg, "beta");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kAllTypes);
  check_dtype_in(b.op(), "mat", mat.dtype, kAllTypes);
  check_dtype_in(b.op(), "vec", vec.dtype, kAllTypes);
  check_dtype_in(b.op(), "out", out.dtype, kNumericTypes);
  check_dtype_in(b.op(), "alpha", alpha.dtype, kAllTypes);
  check_dtype_in(b.op(), "beta", beta.dtype, kAllTypes);
  const DType result = promote(promote(self.dtype, mat.dtype), vec.dtype);
  check_can_cast(result, out, "out");
  check_coefficient(&alpha, "alpha", result);
  check_coefficient(&beta, "beta", result);
  check_dims(self, "self", 1, 1);
  check_dims(mat, "mat", 2, 2);
  check_dims(vec, "vec", 1, 1);
  check_len(vec.view[0], vec, "vec", mat.view[1], "the columns of mat");
  const int64_t n = mat.view[0];
  if (self.view[0] != n && self.view[0] != 1)
    invalid("self has shape {}, which does not broadcast to mat @ vec's shape [{}]", dims_str(self.view), n);
  check_shape_equals(out, "out", {n}, "mat @ vec's shape");
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.m = n;
  prob.k = mat.view[1];
  prob.n = 1;
  prob.a = &mat;
  prob.a_map.dims = {0, 1};
  prob.b = &vec;
  prob.b_map.dims = {0, -1};
  prob.c = &out;
  prob.c_map.dims = {0, -1};
  prob.bias = &self;
  prob.bias_map.dims = {0, -1};
  prob.compute = compute_of(result);
  prob.result = result;
  set_coefficients(prob, &beta, &alpha);
  finish_product(b, prob, "addmv");
}

// ---- Dot ------------------------------------------------------------------------------------------------

void plan_dot(OpBuilder& b, const aclTensor* self_arg, const aclTensor* tensor_arg, aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& tensor = b.input(tensor_arg, "tensor");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kDotTypes);
  check_same_dtype(tensor, "tensor", self, "self");
  check_same_dtype(out, "out", self, "self");
  check_dims(self, "self", 1, 1);
  check_dims(tensor, "tensor", 1, 1);
  check_len(tensor.view[0], tensor, "tensor", self.view[0], "self");
  check_dims(out, "out", 0, 0);
  MatmulProblem prob;
  prob.m = 1;
  prob.k = self.view[0];
  prob.n = 1;
  prob.a = &self;
  prob.a_map.dims = {-1, 0};
  prob.b = &tensor;
  prob.b_map.dims = {0, -1};
  prob.c = &out;
  prob.c_map.dims = {-1, -1};
  prob.compute = compute_of(self.dtype);
  finish_product(b, prob, "dot");
}

// ---- Ger / Addr ----------------------------------------------------------------------------------------

void outer_operands(MatmulProblem& prob, const aclTensor& v1, const aclTensor& v2, const aclTensor& out) {
  prob.m = v1.view[0];
  prob.k = 1;
  prob.n = v2.view[0];
  prob.a = &v1;
  prob.a_map.dims = {0, -1};
  prob.b = &v2;
  prob.b_map.dims = {-1, 0};
  prob.c = &out;
  prob.c_map.dims = {0, 1};
}

void plan_ger(OpBuilder& b, const aclTensor* self_arg, const aclTensor* vec2_arg, aclTensor* out_arg) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& vec2 = b.input(vec2_arg, "vec2");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "self", self.dtype, kGerTypes);
  check_dtype_in(b.op(), "vec2", vec2.dtype, kGerTypes);
  check_dtype_in(b.op(), "out", out.dtype, kGerTypes);
  const DType result = promote(self.dtype, vec2.dtype);
  check_can_cast(result, out, "out");
  check_dims(self, "self", 1, 1);
  check_dims(vec2, "vec2", 1, 1);
  check_dims(out, "out", 2, 2);
  check_shape_equals(out, "out", {self.view[0], vec2.view[0]}, "the outer product's shape");
  MatmulProblem prob;
  outer_operands(prob, self, vec2, out);
  prob.compute = compute_of(result);
  prob.result = result;
  finish_product(b, prob, "ger");
}

void plan_addr(OpBuilder& b, const aclTensor* self_arg, const aclTensor* vec1_arg, const aclTensor* vec2_arg,
               const aclScalar* beta_arg, const aclScalar* alpha_arg, aclTensor* out_arg, bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& vec1 = b.input(vec1_arg, "vec1");
  const aclTensor& vec2 = b.input(vec2_arg, "vec2");
  const aclScalar* beta = beta_arg ? &b.scalar(beta_arg, "betaOptional") : nullptr;
  const aclScalar* alpha = alpha_arg ? &b.scalar(alpha_arg, "alphaOptional") : nullptr;
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  check_dtype_in(b.op(), self_name, self.dtype, kAllTypes);
  check_dtype_in(b.op(), "vec1", vec1.dtype, kAllTypes);
  check_dtype_in(b.op(), "vec2", vec2.dtype, kAllTypes);
  if (!inplace) check_dtype_in(b.op(), "out", out.dtype, kAllTypes);
  if (beta) check_dtype_in(b.op(), "betaOptional", beta->dtype, kAllTypes);
  if (alpha) check_dtype_in(b.op(), "alphaOptional", alpha->dtype, kAllTypes);
  const DType result = promote(promote(self.dtype, vec1.dtype), vec2.dtype);
  check_can_cast(result, out, inplace ? self_name : "out");
  check_coefficient(beta, "betaOptional", result);
  check_coefficient(alpha, "alphaOptional", result);
  check_dims(self, self_name, inplace ? 2 : 0, 2);
  check_dims(vec1, "vec1", 1, 1);
  check_dims(vec2, "vec2", 1, 1);
  const Dims shape = {vec1.view[0], vec2.view[0]};
  const char* what = "the outer product's shape";
  MatmulProblem prob;
  outer_operands(prob, vec1, vec2, out);
  if (inplace) {
    check_shape_equals(self, self_name, shape, what);
    prob.read_c = true;
  } else {
    check_shape_equals(out, "out", shape, what);
    for (int64_t i = 0; i < 2; ++i) {
      const int64_t d = i - (2 - self.dim());
      if (d < 0) {
        prob.bias_map.dims.push_back(-1);
        continue;
      }
      const int64_t s = self.view[static_cast<size_t>(d)];
      if (s != shape[static_cast<size_t>(i)] && s != 1)
        invalid("self has shape {}, which does not broadcast to {} {}", dims_str(self.view), what, dims_str(shape));
      prob.bias_map.dims.push_back(static_cast<int>(d));
    }
    prob.bias = &self;
  }
  prob.compute = compute_of(result);
  prob.result = result;
  set_coefficients(prob, beta, alpha);
  finish_product(b, prob, inplace ? "inplace_addr" : "addr");
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Mv, "aclnnMvGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_mv(b, self, vec, out, cubeMathType); });
}

aclnnStatus aclnnAddmvGetWorkspaceSize(const aclTensor* self, const aclTensor* mat, const aclTensor* vec,
                                       const aclScalar* alpha, const aclScalar* beta, aclTensor* out,
                                       int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Addmv, "aclnnAddmvGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_addmv(b, self, mat, vec, alpha, beta, out, cubeMathType); });
}

aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Dot, "aclnnDotGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_dot(b, self, tensor, out); });
}

aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor* self, const aclTensor* vec2, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Ger, "aclnnGerGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_ger(b, self, vec2, out); });
}

aclnnStatus aclnnAddrGetWorkspaceSize(const aclTensor* self, const aclTensor* vec1, const aclTensor* vec2,
                                      const aclScalar* betaOptional, const aclScalar* alphaOptional, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Addr, "aclnnAddrGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_addr(b, self, vec1, vec2, betaOptional, alphaOptional, out, false);
  });
}

aclnnStatus aclnnInplaceAddrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* vec1, const aclTensor* vec2,
                                             const aclScalar* betaOptional, const aclScalar* alphaOptional,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceAddr, "aclnnInplaceAddrGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_addr(b, selfRef, vec1, vec2, betaOptional, alphaOptional, nullptr, true);
                          });
}

}  // extern "C"
