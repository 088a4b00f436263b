// Checks and helpers shared by the movement family (layout, join/split, pads, triangles).
#pragma once

#include <cstdint>
#include <vector>

#include "core/executor.h"
#include "ops/elementwise_op.h"

namespace pacl {

// Every dtype a pure data movement can move: the ten compute dtypes, the unsigned ones and complex.
inline constexpr DTypeMask kMoveTypes =
    kAllTypes | dtype_mask({DType::kUInt16, DType::kUInt32, DType::kUInt64, DType::kComplex64, DType::kComplex128});

// out's dtype must be self's (a movement op does not convert).
void check_same_dtype(const aclTensor& out, const char* out_name, const aclTensor& self, const char* self_name);
// lo <= t.dim() <= hi.
void check_rank_between(const aclTensor& t, const char* arg, int64_t lo, int64_t hi);

Dims erase_dim(Dims d, int64_t k);
Dims insert_dim(Dims d, int64_t k, int64_t v);
// "[a, b, c]" of an int list (for messages).
std::string list_str(const std::vector<int64_t>& v);

}  // namespace pacl
