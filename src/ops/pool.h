// Pooling: one walker behind every pooling op (max and average, fixed and adaptive windows, 1 to 3
// spatial dims, channels-first or channels-last, forward and backward).
//
// A pooling problem is a set of planes (batch x channels) of up to three spatial dims. The dense
// arrays the DensePlan hands to a body are described by element strides (per plane: batch and
// channel strides; per spatial dim: a stride), so NCHW and NHWC are the same walk. Spatial dims
// that an op does not have are size-1 dims with a one-tap window, so every walk is three nested
// loops. Each output index o of spatial dim d owns a Span of input positions (first, count, step),
// tabulated at plan time:
//   fixed windows:    taps start + j*dilation, start = o*stride - pad_begin, j < kernel, clipped
//                     to [0, in); `padded` = min(start + kernel, in + pad_end) - start (the
//                     count_include_pad divisor);
//   adaptive windows: [floor(o*in/out), ceil((o+1)*in/out)).
// Forward reductions walk the taps of each output; backward ones scatter into the taps (a plane is
// one task, so the scatter needs no atomics). Planes are split across the intra-op threads.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/meta.h"
#include "core/parallel.h"

namespace pacl::pool {

inline constexpr int kMaxSpatial = 3;

// One spatial dim of a fixed window (kernel, stride, padding before/after, dilation).
struct Window {
  int64_t kernel = 1, stride = 1, pad_begin = 0, pad_end = 0, dilation = 1;
};

struct Span {
  int64_t first = 0;   // first valid input position
  int64_t count = 0;   // valid taps
  int64_t step = 1;    // distance between taps
  int64_t tap0 = 0;    // kernel index of the first valid tap
  int64_t padded = 0;  // window size counting padding (average pooling with count_include_pad)
};

// Output size of a fixed window along one dim (PyTorch's pooling_output_shape, with CANN's
// asymmetric pads): with ceil_mode the last window must start inside the input or the left pad.
int64_t output_size(int64_t in, const Window& w, bool ceil_mode);

struct Geometry {
  int64_t batch = 1, channels = 1;
  int64_t in_n = 0, in_c = 0, out_n = 0, out_c = 0;  // plane strides (elements)
  std::array<int64_t, kMaxSpatial> in{{1, 1, 1}}, out{{1, 1, 1}};
  std::array<int64_t, kMaxSpatial> in_st{{0, 0, 0}}, out_st{{0, 0, 0}};
  std::array<std::vector<Span>, kMaxSpatial> spans;  // spans[d][o]
  std::array<int64_t, kMaxSpatial> kernel{{1, 1, 1}};  // taps per window (mask layout)

  int64_t planes() const { return batch * channels; }
  int64_t in_plane(int64_t p) const { return (p / channels) * in_n + (p % channels) * in_c; }
  int64_t out_plane(int64_t p) const { return (p / channels) * out_n + (p % channels) * out_c; }
  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  // Element offset (within a plane) of the flat spatial index (d*H + h)*W + w.
  int64_t in_offset_of_flat(int64_t flat) const {
    const int64_t w = flat % in[2], h = (flat / in[2]) % in[1], d = flat / (in[2] * in[1]);
    return d * in_st[0] + h * in_st[1] + w * in_st[2];
  }
};

// Describes dense row-major arrays of shapes in_shape / out_shape with `nd` trailing spatial dims
// (or, channels_last, spatial dims before a last channel dim) and an optional leading batch dim.
Geometry make_geometry(const Dims& in_shape, const Dims& out_shape, int nd, bool channels_last);
// Fills the spans of fixed windows (w has nd entries, for the trailing nd of the three dims).
void set_fixed_windows(Geometry& g, int nd, const Window* w);
void set_adaptive_windows(Geometry& g);

// Calls f(plane, in_base, out_base) for each plane, split across threads.
template <typename F>
void for_each_plane(const Geometry& g, F&& f) {
  const int64_t work = g.in_numel() + g.out_numel();
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, work));
  parallel_for(g.planes(), grain, [&](int64_t b, int64_t e, int) {
    for (int64_t p = b; p < e; ++p) f(p, g.in_plane(p), g.out_plane(p));
  });
}

// Calls f(out_offset, spans) for every output position of one plane (out_offset within the plane).
template <typename F>
inline void for_each_window(const Geometry& g, F&& f) {
  for (int64_t o0 = 0; o0 < g.out[0]; ++o0)
    for (int64_t o1 = 0; o1 < g.out[1]; ++o1)
      for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
        const Span* s[kMaxSpatial] = {&g.spans[0][o0], &g.spans[1][o1], &g.spans[2][o2]};
        f(o0 * g.out_st[0] + o1 * g.out_st[1] + o2 * g.out_st[2], s);
      }
}

// Calls f(in_offset, flat_index, kernel_index) for each valid tap of one window.
template <typename F>
inline void for_each_tap(const Geometry& g, const Span* const* s, F&& f) {
  for (int64_t a = 0; a < s[0]->count; ++a) {
    const int64_t i0 = s[0]->first + a * s[0]->step, k0 = s[0]->tap0 + a;
    for (int64_t b = 0; b < s[1]->count; ++b) {
      const int64_t i1 = s[1]->first + b * s[1]->step, k1 = s[1]->tap0 + b;
      for (int64_t c = 0; c < s[2]->count; ++c) {
        const int64_t i2 = s[2]->first + c * s[2]->step, k2 = s[2]->tap0 + c;
        f(i0 * g.in_st[0] + i1 * g.in_st[1] + i2 * g.in_st[2], (i0 * g.in[1] + i1) * g.in[2] + i2,
          (k0 * g.kernel[1] + k1) * g.kernel[2] + k2);
      }
    }
  }
}

enum class Reduce { kMax, kAvg };

struct AvgOptions {
  bool count_include_pad = true;
  int64_t divisor_override = 0;  // 0: none
};

// Forward pooling of one kind. Max: out = max over taps (NaN wins, PyTorch's rule: a later NaN
// replaces the max), indices (when non-null) = flat spatial index of the chosen tap, the first
// valid tap when every value is -inf. Avg: sum / divisor in T (float for 16-bit floats).
template <Reduce R, typename T, typename I = int64_t>
void forward(const Geometry& g, const T* in, T* out, I* indices, const AvgOptions& avg = {}) {
  for_each_plane(g, [&](int64_t, int64_t ib, int64_t ob) {
    const T* src = in + ib;
    for_each_window(g, [&](int64_t oo, const Span* const* s) {
      if constexpr (R == Reduce::kMax) {
        T best = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                       : std::numeric_limits<T>::lowest();
        int64_t arg = -1, first = -1;
        for_each_tap(g, s, [&](int64_t off, int64_t flat, int64_t) {
          const T v = src[off];
          if (first < 0) first = flat;
          bool take = v > best;
          if constexpr (std::is_floating_point_v<T>) take = take || std::isnan(v);
          if (take) {
            best = v;
            arg = flat;
          }
        });
        if (arg < 0) arg = first < 0 ? 0 : first;
        out[ob + oo] = best;
        if (indices) indices[ob + oo] = static_cast<I>(arg);
      } else {
        T sum = 0;
        int64_t n = 0;
        for_each_tap(g, s, [&](int64_t off, int64_t, int64_t) {
          sum += src[off];
          ++n;
        });
        int64_t div = avg.divisor_override;
        if (div == 0) div = avg.count_include_pad ? s[0]->padded * s[1]->padded * s[2]->padded : n;
        out[ob + oo] = sum / static_cast<T>(div);
      }
    });
  });
}

// grad_in = 0, then for every window: grad_in[tap] += grad_out / divisor (average pooling).
template <typename T>
void avg_backward(const Geometry& g, const T* grad_out, T* grad_in, const AvgOptions& avg) {
  for_each_plane(g, [&](int64_t, int64_t ib, int64_t ob) {
    T* dst = grad_in + ib;
    for (int64_t a = 0; a < g.in[0]; ++a)
      for (int64_t b = 0; b < g.in[1]; ++b)
        for (int64_t c = 0; c < g.in[2]; ++c) dst[a * g.in_st[0] + b * g.in_st[1] + c * g.in_st[2]] = T(0);
    for_each_window(g, [&](int64_t oo, const Span* const* s) {
      int64_t div = avg.divisor_override;
      if (div == 0) {
        if (avg.count_include_pad) {
          div = s[0]->padded * s[1]->padded * s[2]->padded;
        } else {
          div = s[0]->count * s[1]->count * s[2]->count;
        }
      }
      if (div == 0) return;
      const T v = grad_out[ob + oo] / static_cast<T>(div);
      for_each_tap(g, s, [&](int64_t off, int64_t, int64_t) { dst[off] += v; });
    });
  });
}

// grad_in = 0, then grad_in[indices[o]] += grad_out[o] (indices: flat spatial positions within a
// plane; one outside [0, plane size) is skipped).
template <typename T, typename I>
void max_backward(const Geometry& g, const T* grad_out, const I* indices, T* grad_in) {
  const int64_t plane = g.in_numel();
  for_each_plane(g, [&](int64_t, int64_t ib, int64_t ob) {
    T* dst = grad_in + ib;
    for (int64_t a = 0; a < g.in[0]; ++a)
      for (int64_t b = 0; b < g.in[1]; ++b)
        for (int64_t c = 0; c < g.in[2]; ++c) dst[a * g.in_st[0] + b * g.in_st[1] + c * g.in_st[2]] = T(0);
    for (int64_t a = 0; a < g.out[0]; ++a)
      for (int64_t b = 0; b < g.out[1]; ++b)
        for (int64_t c = 0; c < g.out[2]; ++c) {
          const int64_t oo = ob + a * g.out_st[0] + b * g.out_st[1] + c * g.out_st[2];
          const int64_t idx = static_cast<int64_t>(indices[oo]);
          if (idx < 0 || idx >= plane) continue;
          dst[g.in_offset_of_flat(idx)] += grad_out[oo];
        }
  });
}

}  // namespace pacl::pool
