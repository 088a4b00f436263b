#include "ops/dims.h"

#include <algorithm>

#include "runtime/status.h"

namespace pacl {

int64_t wrap_dim(int64_t dim, int64_t rank, const char* arg) {
  const int64_t r = std::max<int64_t>(rank, 1);
  if (dim < -r || dim >= r) invalid("{} is {}, expected a dim in [{}, {}] for a tensor of {} dims", arg, dim, -r, r - 1, rank);
  return dim < 0 ? dim + r : dim;
}

std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t rank, const char* arg, bool empty_means_all) {
  std::vector<int64_t> r;
  if (dims.empty() && empty_means_all) {
    for (int64_t d = 0; d < rank; ++d) r.push_back(d);
    return r;
  }
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 1)), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, rank, arg);
    if (seen[static_cast<size_t>(w)]) invalid("{} names dim {} more than once ({} given)", arg, w, d);
    seen[static_cast<size_t>(w)] = true;
    r.push_back(w);
  }
  return r;
}

}  // namespace pacl
