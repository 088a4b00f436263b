// Dim arguments shared by the non-elementwise ops: wrapping negative dims, dim lists, shapes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/meta.h"

namespace pacl {

// Wraps dim into [0, rank) as PyTorch does (a 0-d tensor takes -1 and 0 as dim 0). Throws
// InvalidArgument naming `arg` with the accepted range.
int64_t wrap_dim(int64_t dim, int64_t rank, const char* arg);

// The dims of an aclIntArray, each wrapped; a repeated dim is an InvalidArgument. An empty list
// means "every dim" when empty_means_all.
std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t rank, const char* arg, bool empty_means_all);

}  // namespace pacl
