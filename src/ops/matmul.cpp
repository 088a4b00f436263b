// Matrix products of float32/float16/bfloat16 tensors (CANN's cube ops), all through plan_matmul:
//   Mm            out = self @ mat2                                  (2-D)
//   Matmul        out = self @ mat2 with torch.matmul's 1-D / batched broadcasting rules (1..6 dims)
//   BatchMatMul   out = self @ mat2                                  (3-D, batch dim broadcasts)
//   Addmm         out = beta * self + alpha * (mat1 @ mat2)          (self broadcasts to [m, n])
//   Baddbmm       out = beta * self + alpha * (batch1 @ batch2)      (self broadcasts to [b, m, n])
//   Addbmm        out = beta * self + alpha * sum_i batch1[i] @ batch2[i]
//   Gemm          out = alpha * op(A) @ op(B) + beta * C             (op: optional transpose)
//   TransposeBatchMatMul  out = (x1.permute(permX1) @ x2.permute(permX2)).permute(permY), the batch
//                 optionally split into batchSplitFactor blocks laid side by side along N
// beta == 0 ignores self (NaN included), alpha == 0 ignores the product (PyTorch's BLAS semantics).
// Everything computes in float32 and is rounded once to out's dtype.
#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_gemm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_transpose_batch_mat_mul.h"
#include "core/dense.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/gemm.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kCubeTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr int64_t kMaxMatmulRank = 6;

void check_cube_dtypes(OpBuilder& b, std::initializer_list<std::pair<const char*, const aclTensor*>> ts) {
  for (const auto& [name, t] : ts) check_dtype_in(b.op(), name, t->dtype, kCubeTypes);
}

void check_dims(const aclTensor& t, const char* name, int64_t lo, int64_t hi) {
  if (t.dim() < lo || t.dim() > hi) {
    if (lo == hi) invalid("{} has {} dims ({}), expected {}", name, t.dim(), t.describe(), lo);
    invalid("{} has {} dims ({}), expected {} to {}", name, t.dim(), t.describe(), lo, hi);
  }
}

void check_k(int64_t ka, const aclTensor& a, const char* a_name, int64_t kb, const aclTensor& b, const char* b_name) {
  if (ka != kb)
    invalid("{} {} and {} {} cannot be multiplied: the reduced dims differ ({} vs {})", a_name, dims_str(a.view), b_name,
            dims_str(b.view), ka, kb);
}

// The map of `self` broadcast to `shape` (self's dims aligned to the right; only self expands).
MatMap bias_map(const aclTensor& self, const char* name, const Dims& shape, const char* what) {
  const int64_t r = static_cast<int64_t>(shape.size());
  if (self.dim() > r)
    invalid("{} has shape {}, which does not broadcast to {} {}", name, dims_str(self.view), what, dims_str(shape));
  MatMap m;
  for (int64_t i = 0; i < r; ++i) {
    const int64_t d = i - (r - self.dim());
    if (d < 0) {
      m.dims.push_back(-1);
      continue;
    }
    const int64_t s = self.view[static_cast<size_t>(d)];
    if (s != shape[static_cast<size_t>(i)] && s != 1)
      invalid("{} has shape {}, which does not broadcast to {} {}", name, dims_str(self.view), what, dims_str(shape));
    m.dims.push_back(static_cast<int>(d));
  }
  return m;
}

MatMap identity_map(int64_t rank) {
  MatMap m;
  for (int i = 0; i < rank; ++i) m.dims.push_back(i);
  return m;
}

Dims with_matrix(Dims batch, int64_t m, int64_t n) {
  batch.push_back(m);
  batch.push_back(n);
  return batch;
}

const char* kProductShape = "the product's shape";

// Registers the operands with a DensePlan and plans the product (nothing to run when out is empty).
void finish_product(OpBuilder& b, MatmulProblem& prob, const std::string& name) {
  if (prob.c->numel() == 0) return;
  DensePlan p(b);
  plan_matmul(p, prob, name);
}

// ---- Mm / Matmul / BatchMatMul ------------------------------------------------------------------------

void plan_mm(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mat2_arg, aclTensor* out_arg, int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& mat2 = b.input(mat2_arg, "mat2");
  const aclTensor& out = b.output(out_arg, "out");
  check_cube_dtypes(b, {{"self", &self}, {"mat2", &mat2}, {"out", &out}});
  check_dims(self, "self", 2, 2);
  check_dims(mat2, "mat2", 2, 2);
  check_k(self.view[1], self, "self", mat2.view[0], mat2, "mat2");
  check_shape_equals(out, "out", {self.view[0], mat2.view[1]}, kProductShape);
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.m = self.view[0];
  prob.k = self.view[1];
  prob.n = mat2.view[1];
  prob.a = &self;
  prob.a_map = identity_map(2);
  prob.b = &mat2;
  prob.b_map = identity_map(2);
  prob.c = &out;
  prob.c_map = identity_map(2);
  finish_product(b, prob, "mm");
}

void plan_matmul_op(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mat2_arg, aclTensor* out_arg,
                    int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& mat2 = b.input(mat2_arg, "mat2");
  const aclTensor& out = b.output(out_arg, "out");
  check_cube_dtypes(b, {{"self", &self}, {"mat2", &mat2}, {"out", &out}});
  check_dims(self, "self", 1, kMaxMatmulRank);
  check_dims(mat2, "mat2", 1, kMaxMatmulRank);
  check_cube_math_type(cube);
  const int64_t ra = self.dim(), rb = mat2.dim();
  const int64_t ka = self.view[static_cast<size_t>(ra - 1)];
  const int64_t kb = mat2.view[static_cast<size_t>(rb == 1 ? 0 : rb - 2)];
  check_k(ka, self, "self", kb, mat2, "mat2");
  MatmulProblem prob;
  prob.m = ra == 1 ? 1 : self.view[static_cast<size_t>(ra - 2)];
  prob.k = ka;
  prob.n = rb == 1 ? 1 : mat2.view[static_cast<size_t>(rb - 1)];
  const Dims ba(self.view.begin(), self.view.end() - std::min<int64_t>(ra, 2));
  const Dims bb(mat2.view.begin(), mat2.view.end() - std::min<int64_t>(rb, 2));
  prob.batch = broadcast_batch(ba, "self", bb, "mat2");
  const size_t nb = prob.batch.size();
  Dims shape = prob.batch;
  if (ra > 1) shape.push_back(prob.m);
  if (rb > 1) shape.push_back(prob.n);
  check_shape_equals(out, "out", shape, kProductShape);

  prob.a = &self;
  prob.a_map = trailing_matrix_map(std::max<int64_t>(ra, 2), nb);
  if (ra == 1) {  // (k) is a [1, k] matrix
    for (size_t i = 0; i < nb; ++i) prob.a_map.dims[i] = -1;
    prob.a_map.dims[nb] = -1;
    prob.a_map.dims[nb + 1] = 0;
  }
  prob.b = &mat2;
  prob.b_map = trailing_matrix_map(std::max<int64_t>(rb, 2), nb);
  if (rb == 1) {  // (k) is a [k, 1] matrix
    for (size_t i = 0; i < nb; ++i) prob.b_map.dims[i] = -1;
    prob.b_map.dims[nb] = 0;
    prob.b_map.dims[nb + 1] = -1;
  }
  prob.c = &out;
  for (size_t i = 0; i < nb; ++i) prob.c_map.dims.push_back(static_cast<int>(i));
  prob.c_map.dims.push_back(ra > 1 ? static_cast<int>(nb) : -1);
  prob.c_map.dims.push_back(rb > 1 ? static_cast<int>(nb + (ra > 1 ? 1 : 0)) : -1);
  finish_product(b, prob, "matmul");
}

void plan_bmm(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mat2_arg, aclTensor* out_arg, int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& mat2 = b.input(mat2_arg, "mat2");
  const aclTensor& out = b.output(out_arg, "out");
  check_cube_dtypes(b, {{"self", &self}, {"mat2", &mat2}, {"out", &out}});
  check_dims(self, "self", 3, 3);
  check_dims(mat2, "mat2", 3, 3);
  check_k(self.view[2], self, "self", mat2.view[1], mat2, "mat2");
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.batch = broadcast_batch({self.view[0]}, "self", {mat2.view[0]}, "mat2");
  prob.m = self.view[1];
  prob.k = self.view[2];
  prob.n = mat2.view[2];
  check_shape_equals(out, "out", with_matrix(prob.batch, prob.m, prob.n), kProductShape);
  prob.a = &self;
  prob.a_map = identity_map(3);
  prob.b = &mat2;
  prob.b_map = identity_map(3);
  prob.c = &out;
  prob.c_map = identity_map(3);
  finish_product(b, prob, "batch_matmul");
}

// ---- Addmm / Baddbmm / Addbmm / Gemm -------------------------------------------------------------------

struct Coefficients {
  double beta, alpha;
};

Coefficients coefficients(OpBuilder& b, const aclScalar* beta_arg, const aclScalar* alpha_arg) {
  const aclScalar& beta = b.scalar(beta_arg, "beta");
  const aclScalar& alpha = b.scalar(alpha_arg, "alpha");
  check_dtype_in(b.op(), "beta", beta.dtype, kAllTypes);
  check_dtype_in(b.op(), "alpha", alpha.dtype, kAllTypes);
  return {beta.to_double(), alpha.to_double()};
}

void plan_addmm(OpBuilder& b, const aclTensor* self_arg, const aclTensor* mat1_arg, const aclTensor* mat2_arg,
                const aclScalar* beta_arg, const aclScalar* alpha_arg, aclTensor* out_arg, int8_t cube,
                bool inplace) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& mat1 = b.input(mat1_arg, "mat1");
  const aclTensor& mat2 = b.input(mat2_arg, "mat2");
  const Coefficients co = coefficients(b, beta_arg, alpha_arg);
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  check_cube_dtypes(b, {{self_name, &self}, {"mat1", &mat1}, {"mat2", &mat2}});
  if (!inplace) check_cube_dtypes(b, {{"out", &out}});
  check_dims(self, self_name, inplace ? 2 : 1, 2);
  check_dims(mat1, "mat1", 2, 2);
  check_dims(mat2, "mat2", 2, 2);
  check_k(mat1.view[1], mat1, "mat1", mat2.view[0], mat2, "mat2");
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.m = mat1.view[0];
  prob.k = mat1.view[1];
  prob.n = mat2.view[1];
  const Dims shape = {prob.m, prob.n};
  if (inplace) check_shape_equals(self, self_name, shape, "mat1 @ mat2's shape");
  else check_shape_equals(out, "out", shape, "mat1 @ mat2's shape");
  prob.a = &mat1;
  prob.a_map = identity_map(2);
  prob.b = &mat2;
  prob.b_map = identity_map(2);
  prob.c = &out;
  prob.c_map = identity_map(2);
  if (inplace) {
    prob.read_c = true;
  } else {
    prob.bias = &self;
    prob.bias_map = bias_map(self, self_name, shape, "mat1 @ mat2's shape");
  }
  prob.alpha = co.alpha;
  prob.beta = co.beta;
  finish_product(b, prob, inplace ? "inplace_addmm" : "addmm");
}

void plan_baddbmm(OpBuilder& b, const aclTensor* self_arg, const aclTensor* b1_arg, const aclTensor* b2_arg,
                  const aclScalar* beta_arg, const aclScalar* alpha_arg, aclTensor* out_arg, int8_t cube,
                  bool inplace, bool reduce) {
  const char* self_name = inplace ? "selfRef" : "self";
  const aclTensor& self = inplace ? b.inout(self_arg, self_name) : b.input(self_arg, self_name);
  const aclTensor& b1 = b.input(b1_arg, "batch1");
  const aclTensor& b2 = b.input(b2_arg, "batch2");
  const Coefficients co = coefficients(b, beta_arg, alpha_arg);
  const aclTensor& out = inplace ? self : b.output(out_arg, "out");
  check_cube_dtypes(b, {{self_name, &self}, {"batch1", &b1}, {"batch2", &b2}});
  if (!inplace) {
    check_cube_dtypes(b, {{"out", &out}});
    if (out.dtype != self.dtype)
      invalid("out has dtype {}, expected the dtype of self ({})", dtype_name(out.dtype), dtype_name(self.dtype));
  }
  check_dims(b1, "batch1", 3, 3);
  check_dims(b2, "batch2", 3, 3);
  check_k(b1.view[2], b1, "batch1", b2.view[1], b2, "batch2");
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.batch = broadcast_batch({b1.view[0]}, "batch1", {b2.view[0]}, "batch2");
  prob.m = b1.view[1];
  prob.k = b1.view[2];
  prob.n = b2.view[2];
  prob.reduce_batch = reduce;
  const Dims shape = reduce ? Dims{prob.m, prob.n} : with_matrix(prob.batch, prob.m, prob.n);
  const char* what = reduce ? "the shape of the sum of batch1 @ batch2" : "batch1 @ batch2's shape";
  check_dims(self, self_name, inplace ? static_cast<int64_t>(shape.size()) : 1, static_cast<int64_t>(shape.size()));
  if (inplace) check_shape_equals(self, self_name, shape, what);
  else check_shape_equals(out, "out", shape, what);
  prob.a = &b1;
  prob.a_map = identity_map(3);
  prob.b = &b2;
  prob.b_map = identity_map(3);
  prob.c = &out;
  prob.c_map = identity_map(static_cast<int64_t>(shape.size()));
  if (inplace) {
    prob.read_c = true;
  } else {
    prob.bias = &self;
    prob.bias_map = bias_map(self, self_name, shape, what);
  }
  prob.alpha = co.alpha;
  prob.beta = co.beta;
  std::string name = reduce ? "addbmm" : "baddbmm";
  finish_product(b, prob, inplace ? "inplace_" + name : name);
}

void plan_gemm_op(OpBuilder& b, const aclTensor* a_arg, const aclTensor* b_arg, const aclTensor* c_arg, float alpha,
                  float beta, int64_t trans_a, int64_t trans_b, aclTensor* out_arg, int8_t cube) {
  const aclTensor& A = b.input(a_arg, "A");
  const aclTensor& B = b.input(b_arg, "B");
  const aclTensor& C = b.input(c_arg, "C");
  const aclTensor& out = b.output(out_arg, "out");
  check_cube_dtypes(b, {{"A", &A}, {"B", &B}, {"C", &C}, {"out", &out}});
  check_dims(A, "A", 2, 2);
  check_dims(B, "B", 2, 2);
  check_dims(C, "C", 1, 2);
  check_cube_math_type(cube);
  MatmulProblem prob;
  prob.a = &A;
  prob.a_map = trailing_matrix_map(2, 0, trans_a != 0);
  prob.b = &B;
  prob.b_map = trailing_matrix_map(2, 0, trans_b != 0);
  prob.m = A.view[trans_a ? 1 : 0];
  prob.k = A.view[trans_a ? 0 : 1];
  const int64_t kb = B.view[trans_b ? 1 : 0];
  prob.n = B.view[trans_b ? 0 : 1];
  check_k(prob.k, A, trans_a ? "A (transposed)" : "A", kb, B, trans_b ? "B (transposed)" : "B");
  const Dims shape = {prob.m, prob.n};
  check_shape_equals(out, "out", shape, "op(A) @ op(B)'s shape");
  prob.c = &out;
  prob.c_map = identity_map(2);
  prob.bias = &C;
  prob.bias_map = bias_map(C, "C", shape, "op(A) @ op(B)'s shape");
  prob.alpha = alpha;
  prob.beta = beta;
  finish_product(b, prob, "gemm");
}

// ---- TransposeBatchMatMul ---------------------------------------------------------------------------

std::vector<int64_t> perm3(OpBuilder& b, const aclIntArray* a, const char* name,
                           std::initializer_list<std::vector<int64_t>> allowed, const char* allowed_text) {
  const std::vector<int64_t> v = b.int_array(a, name).values;
  for (const auto& x : allowed)
    if (v == x) return v;
  invalid("{} is {}, expected {}", name, dims_str(v), allowed_text);
}

void plan_transpose_bmm(OpBuilder& b, const aclTensor* x1_arg, const aclTensor* x2_arg, const aclTensor* bias_arg,
                        const aclTensor* scale_arg, const aclIntArray* perm_x1, const aclIntArray* perm_x2,
                        const aclIntArray* perm_y, int8_t cube, int32_t split, aclTensor* out_arg) {
  const aclTensor& x1 = b.input(x1_arg, "x1");
  const aclTensor& x2 = b.input(x2_arg, "x2");
  if (bias_arg) invalid("bias is reserved by aclnnTransposeBatchMatMul and must be null");
  if (scale_arg) unsupported("scale (an int8 quantized output) is not supported by pacl's aclnnTransposeBatchMatMul yet");
  const std::vector<int64_t> p1 = perm3(b, perm_x1, "permX1", {{0, 1, 2}, {1, 0, 2}}, "[0, 1, 2] or [1, 0, 2]");
  const std::vector<int64_t> p2 = perm3(b, perm_x2, "permX2", {{0, 1, 2}, {0, 2, 1}}, "[0, 1, 2] or [0, 2, 1]");
  perm3(b, perm_y, "permY", {{1, 0, 2}}, "[1, 0, 2]");
  const aclTensor& out = b.output(out_arg, "out");
  check_cube_dtypes(b, {{"x1", &x1}, {"x2", &x2}, {"out", &out}});
  check_dims(x1, "x1", 3, 3);
  check_dims(x2, "x2", 3, 3);
  check_cube_math_type(cube);
  auto dim = [](const aclTensor& t, const std::vector<int64_t>& p, int i) { return t.view[static_cast<size_t>(p[static_cast<size_t>(i)])]; };
  const int64_t batch = dim(x1, p1, 0), m = dim(x1, p1, 1), k = dim(x1, p1, 2);
  if (dim(x2, p2, 0) != batch)
    invalid("x2 has batch {} (shape {}, permX2 {}), expected x1's batch {}", dim(x2, p2, 0), dims_str(x2.view),
            dims_str(p2), batch);
  if (dim(x2, p2, 1) != k)
    invalid("x1 {} and x2 {} cannot be multiplied: the reduced dims differ ({} vs {})", dims_str(x1.view),
            dims_str(x2.view), k, dim(x2, p2, 1));
  const int64_t n = dim(x2, p2, 2);
  if (split < 1 || batch % split != 0)
    invalid("batchSplitFactor is {}, expected a divisor of the batch {}", split, batch);
  MatmulProblem prob;
  prob.m = m;
  prob.k = k;
  prob.n = n;
  const int a0 = static_cast<int>(p1[0]), b0 = static_cast<int>(p2[0]);
  prob.a = &x1;
  prob.b = &x2;
  prob.c = &out;
  if (split == 1) {
    check_shape_equals(out, "out", {m, batch, n}, "the product's shape permuted by permY");
    prob.batch = {batch};
    prob.a_map.dims = {a0, static_cast<int>(p1[1]), static_cast<int>(p1[2])};
    prob.b_map.dims = {b0, static_cast<int>(p2[1]), static_cast<int>(p2[2])};
    prob.c_map.dims = {1, 0, 2};
  } else {  // batch b = s * (batch / split) + t lands in out[s, :, t * n : (t + 1) * n]
    const int64_t per = batch / split;
    check_shape_equals(out, "out", {split, m, per * n}, "the product's shape split by batchSplitFactor");
    prob.batch = {split, per};
    prob.a_map.dims = {a0, a0, static_cast<int>(p1[1]), static_cast<int>(p1[2])};
    prob.a_map.scale = {per, 1, 1, 1};
    prob.b_map.dims = {b0, b0, static_cast<int>(p2[1]), static_cast<int>(p2[2])};
    prob.b_map.scale = {per, 1, 1, 1};
    prob.c_map.dims = {0, 2, 1, 2};
    prob.c_map.scale = {1, n, 1, 1};
  }
  finish_product(b, prob, "transpose_batch_matmul");
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Mm, "aclnnMmGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_mm(b, self, mat2, out, cubeMathType); });
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Matmul, "aclnnMatmulGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_matmul_op(b, self, mat2, out, cubeMathType); });
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_BatchMatMul, "aclnnBatchMatMulGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_bmm(b, self, mat2, out, cubeMathType); });
}

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                                       const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                       int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Addmm, "aclnnAddmmGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_addmm(b, self, mat1, mat2, beta, alpha, out, cubeMathType, false);
  });
}

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* mat1, const aclTensor* mat2,
                                              const aclScalar* beta, const aclScalar* alpha, int8_t cubeMathType,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceAddmm, "aclnnInplaceAddmmGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_addmm(b, selfRef, mat1, mat2, beta, alpha, nullptr, cubeMathType, true);
                          });
}

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                         const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                         int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Baddbmm, "aclnnBaddbmmGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_baddbmm(b, self, batch1, batch2, beta, alpha, out, cubeMathType, false, false);
                          });
}

aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* batch1,
                                                const aclTensor* batch2, const aclScalar* beta, const aclScalar* alpha,
                                                int8_t cubeMathType, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceBaddbmm, "aclnnInplaceBaddbmmGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_baddbmm(b, selfRef, batch1, batch2, beta, alpha, nullptr, cubeMathType, true,
                                               false);
                          });
}

aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                        const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Addbmm, "aclnnAddbmmGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_baddbmm(b, self, batch1, batch2, beta, alpha, out, cubeMathType, false, true);
                          });
}

aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor* selfRef, const aclTensor* batch1, const aclTensor* batch2,
                                               const aclScalar* beta, const aclScalar* alpha, int8_t cubeMathType,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_InplaceAddbmm, "aclnnInplaceAddbmmGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_baddbmm(b, selfRef, batch1, batch2, beta, alpha, nullptr, cubeMathType, true,
                                               true);
                          });
}

aclnnStatus aclnnGemmGetWorkspaceSize(const aclTensor* A, const aclTensor* B, const aclTensor* C, float alpha,
                                      float beta, int64_t transA, int64_t transB, aclTensor* out, int8_t cubeMathType,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Gemm, "aclnnGemmGetWorkspaceSize", workspaceSize, executor, [&](OpBuilder& b) {
    pacl::plan_gemm_op(b, A, B, C, alpha, beta, transA, transB, out, cubeMathType);
  });
}

aclnnStatus aclnnTransposeBatchMatMulGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* bias,
                                                      const aclTensor* scale, const aclIntArray* permX1,
                                                      const aclIntArray* permX2, const aclIntArray* permY,
                                                      int8_t cubeMathType, const int32_t batchSplitFactor,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_TransposeBatchMatMul, "aclnnTransposeBatchMatMulGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_transpose_bmm(b, x1, x2, bias, scale, permX1, permX2, permY, cubeMathType,
                                                     batchSplitFactor, out);
                          });
}

}  // extern "C"
