// Shared planning helpers of the transformer family (rotary embeddings, attention, MoE routing,
// grouped matmul): argument checks with the messages CANN's docs call for, optional tensors, and
// the error class CANN uses for shape problems found while tiling (ACLNN_ERR_INNER_TILING_ERROR).
#pragma once

#include <cstdint>
#include <string>

#include "core/dense.h"
#include "core/executor.h"
#include "core/meta.h"
#include "ops/elementwise_op.h"
#include "runtime/status.h"

namespace pacl::tf {

inline constexpr int kAclnnInnerTiling = 561002;  // ACLNN_ERR_INNER_TILING_ERROR

// CANN reports some shape and attribute problems from tiling, with ACLNN_ERR_INNER_TILING_ERROR.
template <typename... Args>
[[noreturn]] void tiling_error(fmt::format_string<Args...> f, Args&&... args) {
  throw Error(kAclnnInnerTiling, kAclInvalidParam, fmt::format(f, std::forward<Args>(args)...));
}

// Feature a CANN doc defines but pacl does not implement yet.
template <typename... Args>
[[noreturn]] void not_yet(const OpInfo& op, fmt::format_string<Args...> f, Args&&... args) {
  throw Unsupported(fmt::format("aclnn{}: {} is not supported by pacl yet", op.name,
                                    fmt::format(f, std::forward<Args>(args)...)));
}

inline constexpr DTypeMask kF32F16BF16 = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
inline constexpr DTypeMask kF16BF16 = dtype_mask({DType::kFloat16, DType::kBFloat16});
inline constexpr DTypeMask kIndexTypes = dtype_mask({DType::kInt32, DType::kInt64});

// Throws unless t has `rank` dims.
void check_dims(const aclTensor& t, const char* name, int64_t rank);
// Throws unless t's dtype is ref's.
void check_same_dtype(const aclTensor& t, const char* name, const aclTensor& ref, const char* ref_name);
// Throws unless t has shape `shape` (what: how the expected shape was derived).
void check_shape(const aclTensor& t, const char* name, const Dims& shape, const char* what);
// Throws unless t is not empty.
void check_not_empty(const aclTensor& t, const char* name);

// An optional input: nullptr stays nullptr, anything else becomes a slot.
inline const aclTensor* optional_input(OpBuilder& b, const aclTensor* t, const char* name) {
  return t ? &b.input(t, name) : nullptr;
}
inline const aclTensor* optional_output(OpBuilder& b, const aclTensor* t, const char* name) {
  return t ? &b.output(t, name) : nullptr;
}

// The compute dtype of a floating tensor: float32 for float16/bfloat16/float32.
inline DType compute_of(DType t) { return t == DType::kDouble ? DType::kDouble : DType::kFloat; }

}  // namespace pacl::tf
