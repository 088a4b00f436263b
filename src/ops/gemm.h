// Batched matrix products: the one planner behind Mm, Matmul, BatchMatMul, Addmm, Baddbmm, Addbmm, Gemm,
// Mv, Addmv, Dot, Ger and Addr (and the GEMM inside convolution).
//
//   C[b] = alpha * A[b] @ B[b] + beta * C0[b]          for every index b of the batch shape
//   C    = alpha * sum_b A[b] @ B[b] + beta * C0       with reduce_batch (Addbmm)
//
// C0 is `bias` broadcast to C (Addmm's self), or C's own old contents (read_c, the in-place forms), or
// nothing. beta == 0 means C0 is not read at all (PyTorch: NaN in self is ignored).
//
// Each tensor feeds a matrix operand through a MatMap: logical dims (batch dims, then rows, then cols)
// taken from tensor dims, or absent (an added unit dim, or a broadcast). Float32 products go to oneDNN's
// matmul primitive, created at phase 1 with the operands' own strides: a view whose matrices have unit
// stride in either of their last two dims is handed over as it is (oneDNN reads it with the right
// transpose and leading dimension); other views, other dtypes converted to float32 (float16, bfloat16)
// and outputs that cannot be written in place are dense copies booked as workspace by DensePlan, as is
// oneDNN's scratchpad. Batch dims are merged, and folded into M when B is shared by the whole batch.
// Other compute dtypes (float64, integers, bool) run a plain strided loop accumulating in double or
// wrapping 64-bit integers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dense.h"

namespace pacl {

// Logical dim i of an operand is tensor dim dims[i], or -1 (absent: stride 0, i.e. broadcast / unit).
// With scale, its stride is scale[i] times the tensor dim's stride (one tensor dim split into several
// logical dims, as TransposeBatchMatMul's batchSplitFactor does).
struct MatMap {
  std::vector<int> dims;  // batch dims (aligned to the product's batch shape), rows, cols
  std::vector<int64_t> scale;  // empty: all 1
};

struct MatmulProblem {
  Dims batch;  // the product's batch shape
  int64_t m = 0, n = 0, k = 0;
  const aclTensor* a = nullptr;
  MatMap a_map;  // [batch..., m, k]
  const aclTensor* b = nullptr;
  MatMap b_map;  // [batch..., k, n]
  const aclTensor* c = nullptr;  // the output (a slot of the builder)
  MatMap c_map;  // [batch..., m, n], or [m, n] with reduce_batch
  bool read_c = false;  // C0 is C's old contents (in-place forms)
  const aclTensor* bias = nullptr;  // C0 broadcast to C (self of Addmm); may be null
  MatMap bias_map;  // over C's logical dims
  bool reduce_batch = false;
  DType compute = DType::kFloat;  // float (oneDNN), double, or an integral/bool dtype (loops)
  // With a float16/bfloat16 result, operands (and bias) of other dtypes are first rounded to it, as
  // PyTorch casts them to the result dtype, and then computed in float32.
  DType result = DType::kUndefined;
  double alpha = 1, beta = 0;  // floating compute
  int64_t alpha_i = 1, beta_i = 0;  // integral compute
};

// Plans the product into p (operands, workspace, kernel). The tensors must already be slots of p's
// builder. `name` names the kernel ("mm", "baddbmm", ...); the chosen path is appended.
void plan_matmul(DensePlan& p, const MatmulProblem& prob, const std::string& name);

// cubeMathType of the matmul ops: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32,
// 4 USE_FP32_ADD. pacl always computes in float32 (the lower precisions are permissions, not demands).
void check_cube_math_type(int8_t cube_math_type);

// The map of a tensor with `rank` dims whose last two are the matrix, its other dims aligned to the
// right of a batch shape of batch_rank dims (missing leading dims are absent).
MatMap trailing_matrix_map(int64_t rank, size_t batch_rank, bool transpose = false);

// Broadcasts batch shapes as PyTorch does; throws InvalidArgument naming the two arguments.
Dims broadcast_batch(const Dims& a, const char* a_name, const Dims& b, const char* b_name);

// Sets the oneDNN/OpenMP thread count to pacl's intra-op thread count (max_threads()).
void set_gemm_threads();

}  // namespace pacl
