#include "ops/reduce.h"

#include "ops/dims.h"
#include "runtime/status.h"

namespace pacl {

namespace {

constexpr int64_t kChunkWork = 64 * 1024;  // elements per chunk of a split reduction
constexpr int64_t kMaxChunks = 32;
constexpr int64_t kSplitBelowUnits = 16;  // split only reductions with fewer output rows than this

struct Group {
  int64_t size, stride;
  bool reduced;
};

}  // namespace

ReduceLayout plan_reduce_layout(DensePlan& p, const aclTensor& self, const std::vector<bool>& mask, DType compute,
                                size_t acc_size) {
  ReduceLayout L;
  L.self_dtype = self.dtype;
  L.stored = self.dtype;
  L.compute = compute;
  if ((compute == DType::kFloat16 || compute == DType::kBFloat16) && self.dtype != compute) L.round16 = compute;
  const int64_t R = reduced_count(self.view, mask);
  int64_t kept = 1;
  for (size_t d = 0; d < self.view.size(); ++d)
    if (!mask[d]) kept *= self.view[d];
  if (R == 0) {  // nothing is read: every output is the empty reduction
    L.outer = kept;
    L.reduced = 0;
    return L;
  }
  std::vector<Group> gs;
  for (size_t d = 0; d < self.view.size(); ++d) {
    const int64_t n = self.view[d], st = self.strides[d];
    if (n == 1) continue;
    if (!gs.empty() && gs.back().reduced == mask[d] && gs.back().stride == n * st) {
      gs.back().size *= n;
      gs.back().stride = st;
    } else {
      gs.push_back(Group{n, st, mask[d]});
    }
  }
  // Direct reading needs the pattern [kept]? [reduced]? [kept]?.
  int red_at = -1, red_groups = 0;
  for (size_t k = 0; k < gs.size(); ++k)
    if (gs[k].reduced) {
      red_at = static_cast<int>(k);
      ++red_groups;
    }
  const int n_groups = static_cast<int>(gs.size());
  bool direct = false;
  if (red_groups == 1 && red_at <= 1 && n_groups - red_at - 1 <= 1) {
    direct = true;
    if (red_at == 1) {
      L.outer = gs[0].size;
      L.so = gs[0].stride;
    }
    L.reduced = gs[static_cast<size_t>(red_at)].size;
    L.sr = gs[static_cast<size_t>(red_at)].stride;
    if (red_at + 1 < n_groups) {
      L.inner = gs[static_cast<size_t>(red_at) + 1].size;
      L.si = gs[static_cast<size_t>(red_at) + 1].stride;
    }
  } else if (red_groups == 0 && n_groups <= 2) {  // every reduced dim has size 1
    direct = true;
    if (n_groups == 2) {
      L.outer = gs[0].size;
      L.so = gs[0].stride;
    }
    if (n_groups >= 1) {
      L.inner = gs.back().size;
      L.si = gs.back().stride;
    }
  }
  if (!direct) {  // copy to [kept dims..., reduced dims...] in the compute dtype
    L.copy = true;
    for (int pass = 0; pass < 2; ++pass)
      for (size_t d = 0; d < self.view.size(); ++d)
        if (mask[d] == (pass == 1) && self.view[d] != 1) {
          L.copy_shape.push_back(self.view[d]);
          L.copy_strides.push_back(self.strides[d]);
        }
    L.stored = compute;
    L.round16 = DType::kUndefined;
    L.copy_offset = p.scratch(static_cast<size_t>(kept * R) * dtype_size(compute));
    L.outer = kept;
    L.so = R;
    L.reduced = R;
    L.sr = 1;
    L.inner = 1;
    L.si = 0;
  }
  if (L.inner > 1) {
    L.tile = std::min(L.inner, kReduceTile);
    L.tiles = (L.inner + L.tile - 1) / L.tile;
  }
  const int64_t work = L.reduced * L.tile;
  if (L.units() < kSplitBelowUnits && work >= 2 * kChunkWork) {
    const int64_t chunks = std::min(kMaxChunks, work / kChunkWork);
    int64_t rows = (L.reduced + chunks - 1) / chunks;
    if (L.inner == 1) rows = (rows + kReduceBlock - 1) / kReduceBlock * kReduceBlock;
    L.chunk_rows = rows;
    L.chunks = (L.reduced + rows - 1) / rows;
    if (L.chunks > 1)
      L.partial_offset = p.scratch(static_cast<size_t>(L.units() * L.chunks * L.tile) * acc_size);
  }
  return L;
}

std::vector<bool> reduce_mask(const std::vector<int64_t>& dims, int64_t rank, const char* arg, bool empty_means_all) {
  std::vector<bool> mask(static_cast<size_t>(rank), false);
  for (int64_t d : wrap_dims(dims, rank, arg, empty_means_all))
    if (rank > 0) mask[static_cast<size_t>(d)] = true;
  return mask;
}

std::vector<bool> all_dims_mask(int64_t rank) { return std::vector<bool>(static_cast<size_t>(rank), true); }

Dims reduced_shape(const Dims& shape, const std::vector<bool>& mask, bool keepdim) {
  Dims r;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!mask[d]) r.push_back(shape[d]);
    else if (keepdim) r.push_back(1);
  }
  return r;
}

int64_t reduced_count(const Dims& shape, const std::vector<bool>& mask) {
  int64_t n = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (mask[d]) n *= shape[d];
  return n;
}

void check_nonempty_reduction(const aclTensor& self, const std::vector<bool>& mask, int64_t out_numel,
                              const char* what) {
  if (out_numel == 0 || reduced_count(self.view, mask) != 0) return;
  invalid("self has shape {} and the reduced dims hold no elements; {} of an empty set is undefined (it has no "
          "identity)",
          dims_str(self.view), what);
}

std::string ints_str(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace pacl
