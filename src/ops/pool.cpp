#include "ops/pool.h"

#include <algorithm>

#include "ops/pool_plan.h"
#include "runtime/status.h"

namespace pacl::pool {

namespace {

// Floor division (rounds toward -infinity).
int64_t div_floor(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

int64_t output_size(int64_t in, const Window& w, bool ceil_mode) {
  const int64_t span = in + w.pad_begin + w.pad_end - w.dilation * (w.kernel - 1) - 1;
  int64_t out = div_floor(span + (ceil_mode ? w.stride - 1 : 0), w.stride) + 1;
  if (ceil_mode && (out - 1) * w.stride >= in + w.pad_begin) --out;
  return out;
}

Geometry make_geometry(const Dims& in_shape, const Dims& out_shape, int nd, bool channels_last) {
  Geometry g;
  const int r = static_cast<int>(in_shape.size());
  const bool batched = r == nd + 2;
  const int cdim = channels_last ? r - 1 : r - nd - 1;
  const int s0 = channels_last ? r - 1 - nd : r - nd;
  const Dims is = contiguous_strides(in_shape), os = contiguous_strides(out_shape);
  g.batch = batched ? in_shape[0] : 1;
  g.channels = in_shape[static_cast<size_t>(cdim)];
  g.in_n = batched ? is[0] : 0;
  g.out_n = batched ? os[0] : 0;
  g.in_c = is[static_cast<size_t>(cdim)];
  g.out_c = os[static_cast<size_t>(cdim)];
  for (int d = 0; d < nd; ++d) {
    const int k = kMaxSpatial - nd + d;
    const size_t src = static_cast<size_t>(s0 + d);
    g.in[k] = in_shape[src];
    g.out[k] = out_shape[src];
    g.in_st[k] = is[src];
    g.out_st[k] = os[src];
  }
  for (int k = 0; k < kMaxSpatial - nd; ++k) g.spans[k] = {Span{0, 1, 1, 0, 1}};
  return g;
}

void set_fixed_windows(Geometry& g, int nd, const Window* w) {
  for (int d = 0; d < nd; ++d) {
    const int k = kMaxSpatial - nd + d;
    const Window& x = w[d];
    g.kernel[k] = x.kernel;
    std::vector<Span>& sp = g.spans[k];
    sp.assign(static_cast<size_t>(g.out[k]), Span{});
    for (int64_t o = 0; o < g.out[k]; ++o) {
      const int64_t start = o * x.stride - x.pad_begin;
      const int64_t j0 = start >= 0 ? 0 : (-start + x.dilation - 1) / x.dilation;
      const int64_t last = g.in[k] - 1 - start;  // largest tap offset inside the input
      const int64_t j1 = last < 0 ? -1 : std::min(x.kernel - 1, last / x.dilation);
      Span& s = sp[static_cast<size_t>(o)];
      s.step = x.dilation;
      s.tap0 = j0;
      s.count = std::max<int64_t>(0, j1 - j0 + 1);
      s.first = start + j0 * x.dilation;
      s.padded = std::min(start + x.kernel, g.in[k] + x.pad_end) - start;
    }
  }
}

void set_adaptive_windows(Geometry& g) {
  for (int k = 0; k < kMaxSpatial; ++k) {
    std::vector<Span>& sp = g.spans[k];
    sp.assign(static_cast<size_t>(g.out[k]), Span{});
    for (int64_t o = 0; o < g.out[k]; ++o) {
      const int64_t a = (o * g.in[k]) / g.out[k];
      const int64_t e = ((o + 1) * g.in[k] + g.out[k] - 1) / g.out[k];
      sp[static_cast<size_t>(o)] = Span{a, e - a, 1, 0, e - a};
    }
    g.kernel[k] = 1;
  }
}

// ---- planning helpers ------------------------------------------------------------------------

bool channels_last_format(const aclTensor& t, int nd) {
  return (nd == 2 && t.format == kFormatNHWC) || (nd == 3 && t.format == kFormatNDHWC);
}

void check_pool_rank(const aclTensor& t, const char* arg, int nd) {
  if (t.dim() != nd + 1 && t.dim() != nd + 2)
    invalid("{} has {} dims ({}), expected {} or {}", arg, t.dim(), t.describe(), nd + 1, nd + 2);
}

void check_nonempty_planes(const aclTensor& t, const char* arg, int nd) {
  for (int64_t d = t.dim() == nd + 2 ? 1 : 0; d < t.dim(); ++d)
    if (t.view[static_cast<size_t>(d)] <= 0)
        invalid("{} has shape {}; every dim but the batch dim must be positive", arg, dims_str(t.view));
}

std::vector<int64_t> expand_param(const aclIntArray& a, const char* name, int nd, std::initializer_list<size_t> lens,
                                  const std::vector<int64_t>& if_empty) {
  const size_t n = a.values.size();
  if (std::find(lens.begin(), lens.end(), n) == lens.end()) {
    std::string allowed;
    for (size_t l : lens) allowed += (allowed.empty() ? "" : " or ") + std::to_string(l);
    invalid("{} has {} values, expected {}", name, n, allowed);
  }
  if (n == 0) return if_empty;
  if (n == 1) return std::vector<int64_t>(static_cast<size_t>(nd), a.values[0]);
  return std::vector<int64_t>(a.values.begin(), a.values.begin() + nd);
}

void check_positive(const std::vector<int64_t>& v, const char* name) {
  for (int64_t x : v)
    if (x <= 0) invalid("{} is {}, every value must be greater than 0", name, dims_str(Dims(v)));
}

void check_half_kernel_pad(const std::vector<int64_t>& pad, const std::vector<int64_t>& kernel, const char* name) {
  for (size_t i = 0; i < pad.size(); ++i)
    if (pad[i] < 0 || pad[i] > kernel[i] / 2)
      invalid("{} is {}, every value must be in [0, kernelSize/2] (kernelSize {})", name, dims_str(Dims(pad)),
              dims_str(Dims(kernel)));
}

FixedWindows fixed_windows(const std::vector<int64_t>& kernel, const std::vector<int64_t>& stride,
                           const std::vector<int64_t>& pad, const std::vector<int64_t>& dilation) {
  FixedWindows w;
  w.nd = static_cast<int>(kernel.size());
  for (int d = 0; d < w.nd; ++d) {
    const size_t i = static_cast<size_t>(d);
    w.w[i] = Window{kernel[i], stride[i], pad[i], pad[i], dilation[i]};
  }
  return w;
}

Dims pooled_shape(const aclTensor& self, const FixedWindows& w, bool channels_last, bool ceil_mode) {
  Dims out = self.view;
  const int r = static_cast<int>(self.view.size());
  const int s0 = channels_last ? r - 1 - w.nd : r - w.nd;
  for (int d = 0; d < w.nd; ++d) {
    const size_t k = static_cast<size_t>(s0 + d);
    out[k] = output_size(self.view[k], w.w[static_cast<size_t>(d)], ceil_mode);
  }
  return out;
}

Dims adaptive_shape(const aclTensor& self, const std::vector<int64_t>& size, bool channels_last) {
  Dims out = self.view;
  const int nd = static_cast<int>(size.size());
  const int r = static_cast<int>(self.view.size());
  const int s0 = channels_last ? r - 1 - nd : r - nd;
  for (int d = 0; d < nd; ++d) out[static_cast<size_t>(s0 + d)] = size[static_cast<size_t>(d)];
  return out;
}

void check_positive_output(const Dims& out, const aclTensor& self, const char* what) {
  for (int64_t d = 1; d < static_cast<int64_t>(out.size()); ++d)
    if (out[static_cast<size_t>(d)] <= 0)
      invalid("the {} computed for self {} is {}: an axis is not positive", what, dims_str(self.view), dims_str(out));
}

}  // namespace pacl::pool
