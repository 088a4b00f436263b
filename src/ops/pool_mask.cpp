#include "ops/pool_mask.h"

#include <cstring>
#include <memory>

#include "core/dense.h"
#include "ops/pool_plan.h"

namespace pacl::pool {

MaskLayout MaskLayout::of(const Geometry& g) {
  MaskLayout m;
  m.batch = g.batch;
  m.channels = g.channels;
  m.c1 = (g.channels + 15) / 16;
  m.taps = g.kernel[0] * g.kernel[1] * g.kernel[2];
  m.positions = g.out_numel();
  m.groups = (m.positions + 15) / 16 + 1;
  m.bits = m.taps == 1;
  return m;
}

Dims MaskLayout::indices_shape(bool batched) const {
  if (batched) return Dims{batch, channels, taps, groups * 32};
  return Dims{channels, taps, groups * 32};
}

void plan_mask_forward(OpBuilder& b, const aclTensor& self, const aclTensor& out, const aclTensor& indices, Geometry g,
                       const MaskLayout& layout) {
  if (out.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType ct = pool_compute_dtype(self.dtype);
  const int in = p.input(self, ct);
  const int o = p.output(out, ct);
  const int ix = p.output(indices, DType::kInt8);
  const size_t args = p.scratch(static_cast<size_t>(g.planes() * layout.positions) * sizeof(int64_t));
  auto geo = std::make_shared<const Geometry>(std::move(g));
  p.finish(std::string("pool.max_mask.") + dtype_name(self.dtype), [=](const DenseArgs& a) {
    const Geometry& G = *geo;
    int64_t* arg = a.scratch<int64_t>(args);
    forward<Reduce::kMax, float, int64_t>(G, a.in<float>(in), a.out<float>(o), arg);
    char* mask = a.out<char>(ix);
    std::memset(mask, 0, static_cast<size_t>(layout.bytes()));
    for_each_plane(G, [&](int64_t plane, int64_t, int64_t ob) {
      const int64_t n = plane / G.channels, c = plane % G.channels;
      if (!layout.bits) {
        for (int64_t q = 0; q < layout.positions; ++q) {
          const int32_t v = static_cast<int32_t>(arg[ob + q]);
          std::memcpy(mask + (plane * layout.positions + q) * 4, &v, 4);
        }
        return;
      }
      for_each_window(G, [&](int64_t oo, const Span* const* s) {
        const int64_t want = arg[ob + oo];
        int64_t tap = -1;
        for_each_tap(G, s, [&](int64_t, int64_t flat, int64_t k) {
          if (tap < 0 && flat == want) tap = k;
        });
        if (tap < 0) return;
        const int64_t at = layout.word_byte(n, c, tap, oo);
        uint16_t w;
        std::memcpy(&w, mask + at, 2);
        w = static_cast<uint16_t>(w | (1u << (oo % 16)));
        std::memcpy(mask + at, &w, 2);
      });
    });
  });
}

void plan_mask_backward(OpBuilder& b, const aclTensor& grad_out, const aclTensor& indices, const aclTensor& grad_in,
                        Geometry g, const MaskLayout& layout) {
  if (grad_in.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const int go = p.input(grad_out, DType::kFloat);
  const int ix = p.input(indices, DType::kInt8);
  const int gi = p.output(grad_in, DType::kFloat);
  const size_t idx32 = p.scratch(static_cast<size_t>(g.planes() * layout.positions) * sizeof(int32_t));
  auto geo = std::make_shared<const Geometry>(std::move(g));
  p.finish(std::string("pool.max_mask_backward.") + dtype_name(grad_in.dtype), [=](const DenseArgs& a) {
    const Geometry& G = *geo;
    const char* mask = a.in<char>(ix);
    const float* gout = a.in<float>(go);
    float* gin = a.out<float>(gi);
    if (!layout.bits) {
      int32_t* idx = a.scratch<int32_t>(idx32);
      std::memcpy(idx, mask, static_cast<size_t>(G.planes() * layout.positions) * sizeof(int32_t));
      max_backward<float, int32_t>(G, gout, idx, gin);
      return;
    }
    for_each_plane(G, [&](int64_t plane, int64_t ib, int64_t ob) {
      const int64_t n = plane / G.channels, c = plane % G.channels;
      float* dst = gin + ib;
      for (int64_t q = 0; q < G.in_numel(); ++q) dst[G.in_offset_of_flat(q)] = 0.0f;
      for_each_window(G, [&](int64_t oo, const Span* const* s) {
        const float v = gout[ob + oo];
        for_each_tap(G, s, [&](int64_t off, int64_t, int64_t k) {
          uint16_t w;
          std::memcpy(&w, mask + layout.word_byte(n, c, k, oo), 2);
          if ((w >> (oo % 16)) & 1u) dst[off] += v;
        });
      });
    });
  });
}

}  // namespace pacl::pool
