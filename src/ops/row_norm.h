// The row-normalisation kernel behind LayerNorm, RmsNorm and their fused forms (Add*, Deep*,
// Gemma*, Inplace*). A problem is `rows` rows of `cols` contiguous values (the normalised trailing
// dims flattened); per row:
//   x    = alpha * x1 + x2 + addBias            (only when x2 is given; else x = x1)
//          rounded to `sum_dtype` when that is a 16-bit float (the sum is a tensor of that dtype,
//          so the fused op equals Add followed by the norm), and stored to xOut when requested
//   mean = sum(x) / cols,  var = sum((x - mean)^2) / cols        (LayerNorm)
//   mean = 0,              var = sum(x^2) / cols                 (RmsNorm)
//   rstd = 1 / sqrt(var + eps)
//   y    = (x - mean) * rstd * gamma + beta      (gamma, beta optional; Gemma: gamma + 1)
//   y    = y * (1 + scale[b]) + shift[b]          (AdaLayerNorm; b = row / ada_rows)
// cols == 0 gives mean 0 and rstd NaN (as CANN's LayerNorm). Computed in float32 for 16-bit floats.
#pragma once

#include <cstdint>
#include <string>

#include "core/dtype.h"
#include "core/executor.h"

namespace pacl {

struct RowNormSpec {
  bool rms = false;
  // Tensors: each already a slot of the builder, or nullptr when absent.
  const aclTensor* x1 = nullptr;
  const aclTensor* x2 = nullptr;
  const aclTensor* add_bias = nullptr;  // [cols] (broadcast over rows) or the shape of x1
  double alpha = 1;
  const aclTensor* gamma = nullptr;  // cols elements
  const aclTensor* beta = nullptr;   // cols elements
  bool gamma_plus_one = false;
  const aclTensor* y = nullptr;
  const aclTensor* y2 = nullptr;    // a second copy of y (AddRmsNormCast: y in float32 and in x's dtype)
  const aclTensor* xsum = nullptr;  // the sum x (Add forms)
  // AdaLayerNorm: y = y * (1 + scale) + shift with scale/shift rows of `cols` values, one per batch
  // of `ada_rows` consecutive rows.
  const aclTensor* ada_scale = nullptr;
  const aclTensor* ada_shift = nullptr;
  int64_t ada_rows = 1;
  const aclTensor* mean = nullptr;  // rows elements
  const aclTensor* rstd = nullptr;  // rows elements
  // InplaceAddRmsNorm: x1 and x2 are also the outputs y and xsum (read-write slots, not inputs).
  bool inplace = false;
  double eps = 0;
  int64_t rows = 0, cols = 0;
  DType compute = DType::kFloat;     // float or double
  DType sum_dtype = DType::kUndefined;  // dtype the sum x is rounded to (16-bit floats only)
  std::string name;                  // kernel name prefix ("layer_norm")
};

// Books the DensePlan operands and sets the kernel. Needs rows > 0.
void plan_row_norm(OpBuilder& b, const RowNormSpec& s);

// The dims of `x` that `norm_shape` (gamma's shape, normalizedShape, ...) covers: norm_shape must
// equal x's trailing dims, after dropping leading size-1 dims of norm_shape when it is longer than
// what matches (AddRmsNorm's gamma of [1, D]). Returns the number of trailing dims of x; throws
// InvalidArgument naming `what` otherwise.
int64_t trailing_norm_dims(const aclTensor& x, const char* x_name, const Dims& norm_shape, const char* what);

// rows / cols of x split at `norm_dims` trailing dims.
void split_rows_cols(const Dims& shape, int64_t norm_dims, int64_t* rows, int64_t* cols);

// A statistics output (mean, rstd) must hold one value per row: its shape is CANN's
// [A1..Ai, 1..1]; any shape with `rows` elements is accepted (values in row order).
void check_stat_shape(const aclTensor& t, const char* name, const Dims& x_shape, int64_t norm_dims, int64_t rows);


// `t` must have the shape (dtype) of `ref`; messages name both.
void check_shape_like(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name);
void check_dtype_like(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name);

}  // namespace pacl
