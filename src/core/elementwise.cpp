#include "core/elementwise.h"

#include "runtime/status.h"

namespace pacl {

Dims broadcast_shapes(const Dims& a, const char* a_name, const Dims& b, const char* b_name) {
  const size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1)
      invalid("the shape of {} {} does not broadcast with the shape of {} {} (dim {}: {} vs {})", a_name, dims_str(a),
              b_name, dims_str(b), i, x, y);
    out[i] = x == 1 ? y : x;
  }
  return out;
}

Dims broadcast_strides(const aclTensor& t, const Dims& shape) {
  Dims s(shape.size(), 0);
  const size_t lead = shape.size() - t.view.size();
  for (size_t i = 0; i < t.view.size(); ++i) s[lead + i] = t.view[i] == 1 ? 0 : t.strides[i];
  return s;
}

int64_t Geometry::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Geometry merge_dims(const Dims& shape, std::vector<Dims> strides) {
  Geometry g;
  g.strides.resize(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const bool mergeable = !g.shape.empty() && [&] {
      for (size_t k = 0; k < strides.size(); ++k)
        if (g.strides[k].back() != strides[k][d] * shape[d]) return false;
      return true;
    }();
    if (mergeable) {
      g.shape.back() *= shape[d];
      for (size_t k = 0; k < strides.size(); ++k) g.strides[k].back() = strides[k][d];
    } else {
      g.shape.push_back(shape[d]);
      for (size_t k = 0; k < strides.size(); ++k) g.strides[k].push_back(strides[k][d]);
    }
  }
  return g;
}

}  // namespace pacl
