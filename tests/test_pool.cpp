// Pooling ops through the public C API against a naive double-precision reference (pool_test_util.h):
// random shapes, batched and unbatched inputs, NCHW and channels-last formats, strided views,
// kernels, strides, paddings, dilations, ceil modes, count_include_pad / divisor_override, every
// supported dtype, and the bad inputs the CANN docs list.
#include <gtest/gtest.h>

#include <cstring>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_adaptive_max_pool3d.h"
#include "aclnnop/aclnn_adaptive_max_pool3d_backward.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_avgpool3d_backward.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool2d_with_indices_backward.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax_backward.h"
#include "pool_test_util.h"

namespace {

using namespace pooltest;

const std::vector<aclDataType> kFloatTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

int64_t rnd(Rng& rng, int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1)); }

// A value of an element of any pooling dtype (uint16 too) as a double.
double value_at(const FTensor& t, const Shape& idx) {
  if (t.desc().dtype == ACL_UINT16) {
    uint16_t v;
    std::memcpy(&v, const_cast<FTensor&>(t).host().data() + t.desc().storage_index(idx) * 2, 2);
    return v;
  }
  return t.at(idx).as_double();
}

// Expected max pooling: value and flat index per output element (PyTorch's rule: strict '>' keeps
// the first max, a NaN replaces the current max; the first tap when no value beats -inf).
struct MaxRef {
  std::vector<double> value;
  std::vector<int64_t> index;
};

MaxRef ref_max(const RefProblem& P, const FTensor& self) {
  MaxRef r;
  const bool is_float = is_floating(self.desc().dtype);
  P.for_each_output([&](int64_t n, int64_t c, const std::vector<int64_t>&, const auto& taps, int64_t) {
    double best = -HUGE_VAL;
    int64_t arg = -1;
    for (const auto& t : taps) {
      const double v = value_at(self, P.L.index(P.in_shape, n, c, t.first));
      if (v > best || (is_float && std::isnan(v))) {
        best = v;
        arg = P.flat(t.first);
      }
    }
    if (arg < 0) arg = taps.empty() ? 0 : P.flat(taps[0].first);  // no input in the window: -inf, index 0
    if (taps.empty() && !is_float) best = static_cast<double>(int_min(self.desc().dtype));
    r.value.push_back(best);
    r.index.push_back(arg);
  });
  return r;
}

std::vector<double> ref_avg(const RefProblem& P, const FTensor& self, bool count_include_pad, int64_t divisor) {
  std::vector<double> r;
  P.for_each_output([&](int64_t n, int64_t c, const std::vector<int64_t>&, const auto& taps, int64_t padded) {
    double s = 0;
    for (const auto& t : taps) s += self.at(P.L.index(P.in_shape, n, c, t.first)).as_double();
    const int64_t div = divisor ? divisor : (count_include_pad ? padded : static_cast<int64_t>(taps.size()));
    r.push_back(s / static_cast<double>(div));
  });
  return r;
}

// grad_in[n, c, pos] = sum of grad_out[o] over the outputs whose index is flat(pos).
std::vector<double> ref_max_backward(const RefProblem& P, const FTensor& grad_out, const FTensor& indices) {
  std::vector<double> gin(static_cast<size_t>(numel(P.in_shape)), 0.0);
  const Shape in_st = contiguous_strides(P.in_shape);
  P.for_each_output([&](int64_t n, int64_t c, const std::vector<int64_t>& o, const auto&, int64_t) {
    const Shape oi = P.L.index(P.out_shape, n, c, o);
    const int64_t idx = indices.at(oi).i;
    if (idx < 0 || idx >= numel(P.in_shape) / P.batch() / P.channels()) return;
    const Shape ii = P.L.index(P.in_shape, n, c, P.unflat(idx));
    int64_t k = 0;
    for (size_t d = 0; d < ii.size(); ++d) k += ii[d] * in_st[d];
    gin[static_cast<size_t>(k)] += grad_out.at(oi).as_double();
  });
  return gin;
}

std::vector<double> ref_avg_backward(const RefProblem& P, const FTensor& grad_out, bool count_include_pad,
                                     int64_t divisor) {
  std::vector<double> gin(static_cast<size_t>(numel(P.in_shape)), 0.0);
  const Shape in_st = contiguous_strides(P.in_shape);
  P.for_each_output([&](int64_t n, int64_t c, const std::vector<int64_t>& o, const auto& taps, int64_t padded) {
    const int64_t div = divisor ? divisor : (count_include_pad ? padded : static_cast<int64_t>(taps.size()));
    if (div == 0) return;
    const double g = grad_out.at(P.L.index(P.out_shape, n, c, o)).as_double() / static_cast<double>(div);
    for (const auto& t : taps) {
      const Shape ii = P.L.index(P.in_shape, n, c, t.first);
      int64_t k = 0;
      for (size_t d = 0; d < ii.size(); ++d) k += ii[d] * in_st[d];
      gin[static_cast<size_t>(k)] += g;
    }
  });
  return gin;
}

// Compares out (view shape s) against row-major expected values.
void expect_values(const std::string& repro, const FTensor& out, const std::vector<double>& want, bool exact,
                   double scale = 0) {
  int64_t k = 0;
  int bad = 0;
  for_each_index(out.desc().shape, [&](const Shape& i) {
    const double w = want[static_cast<size_t>(k++)];
    const double g = value_at(out, i);
    const double wc = is_floating(out.desc().dtype) && exact ? cast(Num::real(w), out.desc().dtype).f : w;
    if (!close_to(out.desc().dtype, wc, g, exact, scale) && bad++ < 3)
      ADD_FAILURE() << repro << ": element " << shape_str(i) << " is " << g << ", expected " << wc;
  });
}

void expect_indices(const std::string& repro, const FTensor& idx, const std::vector<int64_t>& want) {
  int64_t k = 0;
  int bad = 0;
  for_each_index(idx.desc().shape, [&](const Shape& i) {
    const int64_t w = want[static_cast<size_t>(k++)];
    const int64_t g = idx.at(i).i;
    if (g != w && bad++ < 3) ADD_FAILURE() << repro << ": index " << shape_str(i) << " is " << g << ", expected " << w;
  });
}

// Reorders per-(n, c, o) reference values (the walk order of RefProblem) into row-major order of
// the output view (they differ for channels-last layouts).
std::vector<double> to_row_major(const RefProblem& P, const std::vector<double>& v) {
  std::vector<double> r(v.size());
  const Shape st = contiguous_strides(P.out_shape);
  size_t k = 0;
  P.for_each_output([&](int64_t n, int64_t c, const std::vector<int64_t>& o, const auto&, int64_t) {
    const Shape i = P.L.index(P.out_shape, n, c, o);
    int64_t off = 0;
    for (size_t d = 0; d < i.size(); ++d) off += i[d] * st[d];
    r[static_cast<size_t>(off)] = v[k++];
  });
  return r;
}
std::vector<int64_t> to_row_major(const RefProblem& P, const std::vector<int64_t>& v) {
  std::vector<double> d(v.begin(), v.end());
  d = to_row_major(P, d);
  return std::vector<int64_t>(d.begin(), d.end());
}

// Repro string of a fixed-window problem.
std::string fixed_repro(const char* op, const TensorDesc& self, const std::vector<int64_t>& k,
                        const std::vector<int64_t>& s, const std::vector<int64_t>& p, const std::vector<int64_t>& d,
                        bool ceil_mode, bool cl) {
  return std::string(op) + " self=" + self.str() + (cl ? " channels-last" : "") + " kernel=" + vec_str(k) +
         " stride=" + vec_str(s) + " padding=" + vec_str(p) + " dilation=" + vec_str(d) +
         " ceil=" + (ceil_mode ? "1" : "0");
}

// A random fixed-window max/avg problem with nd spatial dims.
struct FixedCase {
  Layout L;
  Shape in_shape, out_shape;
  std::vector<int64_t> k, s, p, d;   // as passed (s may be empty: = k)
  std::vector<FixedDim> dims;        // effective
  bool ceil_mode = false;
  RefProblem problem() const {
    RefProblem P;
    P.L = L;
    P.in_shape = in_shape;
    P.out_shape = out_shape;
    const auto ds = dims;
    const auto sh = in_shape;
    const Layout l = L;
    P.window = [ds, sh, l](int dim, int64_t o) {
      return ref_fixed_window(o, sh[static_cast<size_t>(l.spatial_dim(dim))], ds[static_cast<size_t>(dim)]);
    };
    for (auto& x : dims) P.kernel.push_back(x.k);
    return P;
  }
};

// max_pad_half: padding in [0, k/2]; dilation up to max_dil.
bool random_fixed_case(Rng& rng, int nd, bool allow_cl, int64_t max_dil, FixedCase* c) {
  c->L.nd = nd;
  c->L.batched = rng() % 4 != 0;
  c->L.channels_last = allow_cl && rng() % 3 == 0;
  c->in_shape.assign(static_cast<size_t>(c->L.rank()), 0);
  if (c->L.batched) c->in_shape[0] = rnd(rng, 1, 3);
  c->in_shape[static_cast<size_t>(c->L.channel_dim())] = rnd(rng, 1, 4);
  for (int d = 0; d < nd; ++d) c->in_shape[static_cast<size_t>(c->L.spatial_dim(d))] = rnd(rng, 1, nd == 3 ? 6 : 9);
  c->k.clear(), c->s.clear(), c->p.clear(), c->d.clear(), c->dims.clear();
  const bool same = rng() % 4 == 0;  // single-value arrays
  for (int d = 0; d < (same ? 1 : nd); ++d) {
    c->k.push_back(rnd(rng, 1, 4));
    c->s.push_back(rnd(rng, 1, 3));
    c->p.push_back(rnd(rng, 0, c->k.back() / 2));
    c->d.push_back(rnd(rng, 1, max_dil));
  }
  if (rng() % 5 == 0) c->s.clear();
  c->ceil_mode = rng() % 2;
  c->out_shape = c->in_shape;
  for (int d = 0; d < nd; ++d) {
    const size_t i = same ? 0 : static_cast<size_t>(d);
    FixedDim f{c->k[i], c->s.empty() ? c->k[i] : c->s[i], c->p[i], c->p[i], c->d[i]};
    c->dims.push_back(f);
    const int64_t in = c->in_shape[static_cast<size_t>(c->L.spatial_dim(d))];
    const int64_t o = ref_out_size(in, f, c->ceil_mode);
    if (o <= 0) return false;
    c->out_shape[static_cast<size_t>(c->L.spatial_dim(d))] = o;
  }
  return true;
}

using MaxFwdFn = aclnnStatus (*)(const aclTensor*, const aclIntArray*, const aclIntArray*, const aclIntArray*,
                                 const aclIntArray*, bool, aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using MaxBwdFn = aclnnStatus (*)(const aclTensor*, const aclTensor*, const aclTensor*, const aclIntArray*,
                                 const aclIntArray*, const aclIntArray*, const aclIntArray*, bool, aclTensor*,
                                 uint64_t*, aclOpExecutor**);

// MaxPool2dWithIndices / MaxPool3dWithArgmax and their backward: forward values and indices, then
// the backward of random gradients through the forward's indices.
void sweep_max_with_indices(int nd, const char* name, MaxFwdFn p1, aclnnStatus (*p2)(void*, uint64_t, aclOpExecutor*, aclrtStream),
                            MaxBwdFn b1, aclnnStatus (*b2)(void*, uint64_t, aclOpExecutor*, aclrtStream), int iters,
                            uint64_t seed) {
  Rng rng(seed);
  int done = 0;
  for (int iter = 0; done < iters && iter < iters * 4; ++iter) {
    FixedCase c;
    if (!random_fixed_case(rng, nd, true, 2, &c)) continue;
    ++done;
    const aclDataType t = kFloatTypes[static_cast<size_t>(iter) % kFloatTypes.size()];
    const aclDataType it = rng() % 2 ? ACL_INT32 : ACL_INT64;
    const aclFormat fmt = c.L.channels_last ? (nd == 2 ? ACL_FORMAT_NHWC : ACL_FORMAT_NDHWC)
                                            : (nd == 2 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW);
    const TensorDesc sd = random_view(t, c.in_shape, rng);
    const std::string r = fixed_repro(name, sd, c.k, c.s, c.p, c.d, c.ceil_mode, c.L.channels_last) +
                          " indices=" + dtype_name(it);
    FTensor self(sd, fmt), out(random_view(t, c.out_shape, rng), fmt), idx(random_view(it, c.out_shape, rng), fmt);
    FillOptions fo;
    fo.special = iter % 5 == 0 ? 0.2 : 0.02;
    self.fill_random(rng, fo);
    out.fill_bytes(rng);
    idx.fill_bytes(rng);
    IntArray k(c.k), s(c.s), p(c.p), d(c.d);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return p1(self.get(), k.a, s.a, p.a, d.a, c.ceil_mode, out.get(), idx.get(), w, e);
              }, p2),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    idx.download();
    const RefProblem P = c.problem();
    const MaxRef want = ref_max(P, self);
    expect_values(r, out, to_row_major(P, want.value), true);
    expect_indices(r, idx, to_row_major(P, want.index));
    if (::testing::Test::HasFailure()) return;

    if (nd == 3 && c.L.channels_last) continue;  // the 3-d backward takes ND (channels-first) only
    // Backward through the forward's indices (or, sometimes, random in-range indices).
    if (rng() % 4 == 0) {
      int64_t plane = 1;
      for (int dd = 0; dd < nd; ++dd) plane *= c.in_shape[static_cast<size_t>(c.L.spatial_dim(dd))];
      for_each_index(c.out_shape, [&](const Shape& i) { idx.set(i, Num::integer(rnd(rng, 0, plane - 1))); });
      idx.upload();
    }
    FTensor gout(random_view(t, c.out_shape, rng), fmt), gin(random_view(t, c.in_shape, rng), fmt);
    gout.fill_uniform(rng);
    gin.fill_bytes(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return b1(gout.get(), self.get(), idx.get(), k.a, s.a, p.a, d.a, c.ceil_mode, gin.get(), w, e);
              }, b2),
              ACL_SUCCESS)
        << r << " backward: " << aclGetRecentErrMsg();
    gin.download();
    const std::vector<double> gw = ref_max_backward(P, gout, idx);
    expect_values(r + " backward", gin, gw, false, 16);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(MaxPool2dWithIndices, RandomProblemsAndBackward) {
  sweep_max_with_indices(2, "MaxPool2dWithIndices", aclnnMaxPool2dWithIndicesGetWorkspaceSize,
                         aclnnMaxPool2dWithIndices, aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize,
                         aclnnMaxPool2dWithIndicesBackward, 80, 11);
}

TEST(MaxPool3dWithArgmax, RandomProblemsAndBackward) {
  sweep_max_with_indices(3, "MaxPool3dWithArgmax", aclnnMaxPool3dWithArgmaxGetWorkspaceSize,
                         aclnnMaxPool3dWithArgmax, aclnnMaxPool3dWithArgmaxBackwardGetWorkspaceSize,
                         aclnnMaxPool3dWithArgmaxBackward, 50, 12);
}

// ---- MaxPool (ONNX) -----------------------------------------------------------------------------

TEST(MaxPool, EveryDtypeAsymmetricPads) {
  Rng rng(21);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64,
                                          ACL_UINT8, ACL_INT16,   ACL_INT8, ACL_UINT16};
  int done = 0;
  for (int iter = 0; done < 90 && iter < 400; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const bool batched = rng() % 3 != 0;
    Shape in = batched ? Shape{rnd(rng, 1, 2), rnd(rng, 1, 3), rnd(rng, 1, 8), rnd(rng, 1, 8)}
                       : Shape{rnd(rng, 1, 3), rnd(rng, 1, 8), rnd(rng, 1, 8)};
    const std::vector<int64_t> k = {rnd(rng, 1, 4), rnd(rng, 1, 4)};
    std::vector<int64_t> s = {rnd(rng, 1, 3), rnd(rng, 1, 3)};
    if (rng() % 4 == 0) s.clear();
    std::vector<int64_t> pads;
    const int pk = static_cast<int>(rng() % 4);
    FixedDim fh{k[0], s.empty() ? 1 : s[0], 0, 0, 1}, fw{k[1], s.empty() ? 1 : s[1], 0, 0, 1};
    if (pk == 1) {  // 2 values: {h, w} both sides
      pads = {rnd(rng, 0, k[0] / 2), rnd(rng, 0, k[1] / 2)};
      fh.pb = fh.pe = pads[0];
      fw.pb = fw.pe = pads[1];
    } else if (pk == 2) {  // 4 values: {top, left, bottom, right}
      const int64_t top = rnd(rng, 0, k[0] - 1), left = rnd(rng, 0, k[1] - 1);  // a window never lies wholly in a pad
      pads = {top, left, rnd(rng, 0, k[0] - top), rnd(rng, 0, k[1] - left)};
      fh.pb = pads[0], fw.pb = pads[1], fh.pe = pads[2], fw.pe = pads[3];
    }
    const bool ceil_mode = rng() % 2;
    Shape out = in;
    const size_t hd = in.size() - 2, wd = in.size() - 1;
    out[hd] = ref_out_size(in[hd], fh, ceil_mode);
    out[wd] = ref_out_size(in[wd], fw, ceil_mode);
    if (out[hd] <= 0 || out[wd] <= 0) continue;
    ++done;
    const TensorDesc sd = random_view(t, in, rng);
    const std::string r = std::string("MaxPool self=") + sd.str() + " kernel=" + vec_str(k) + " strides=" + vec_str(s) +
                          " pads=" + vec_str(pads) + " ceil=" + (ceil_mode ? "1" : "0");
    FTensor self(sd, ACL_FORMAT_NCHW), o(random_view(t, out, rng), ACL_FORMAT_NCHW);
    if (t == ACL_UINT16) self.fill_bytes(rng);
    else self.fill_random(rng);
    o.fill_bytes(rng);
    IntArray ka(k), sa(s), pa(pads), da(std::vector<int64_t>(rng() % 2 ? 2 : 0, 1));
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnMaxPoolGetWorkspaceSize(self.get(), ka.a, sa.a, 0, pa.a, da.a, ceil_mode ? 7 : 0, o.get(), w, e);
              }, aclnnMaxPool),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    o.download();
    RefProblem P;
    P.L = Layout{2, batched, false};
    P.in_shape = in;
    P.out_shape = out;
    P.window = [&](int d, int64_t oi) { return ref_fixed_window(oi, in[d == 0 ? hd : wd], d == 0 ? fh : fw); };
    P.kernel = k;
    expect_values(r, o, ref_max(P, self).value, true);
    if (HasFailure()) return;
  }
}

// ---- MaxPool2dWithMask --------------------------------------------------------------------------

// The mask layout of docs/ops/pool.md: kernel 1x1 -> bit p%16 of uint16 word
// (((n*C1 + c/16)*taps + k)*groups + p/16)*16 + c%16; else int32 flat indices [N, C, Ho, Wo].
TEST(MaxPool2dWithMask, LayoutAndBackwardRoundTrip) {
  Rng rng(31);
  int done = 0;
  for (int iter = 0; done < 60 && iter < 300; ++iter) {
    FixedCase c;
    if (!random_fixed_case(rng, 2, false, 1, &c)) continue;
    if (iter % 3 == 0) {  // the bit-mask path
      c.k = {1};
      c.p = {0};
      for (auto& d : c.dims) d.k = 1, d.pb = d.pe = 0, d.s = c.s.empty() ? 1 : d.s;
      for (int d = 0; d < 2; ++d)
        c.out_shape[static_cast<size_t>(c.L.spatial_dim(d))] =
            ref_out_size(c.in_shape[static_cast<size_t>(c.L.spatial_dim(d))], c.dims[static_cast<size_t>(d)], c.ceil_mode);
    }
    ++done;
    const aclDataType t = kFloatTypes[static_cast<size_t>(iter) % kFloatTypes.size()];
    const RefProblem P = c.problem();
    const int64_t N = P.batch(), C = P.channels(), taps = c.dims[0].k * c.dims[1].k, HoWo = P.out_plane();
    const int64_t groups = (HoWo + 15) / 16 + 1;
    const Shape mshape = c.L.batched ? Shape{N, C, taps, groups * 32} : Shape{C, taps, groups * 32};
    const TensorDesc sd = random_view(t, c.in_shape, rng);
    const std::string r = fixed_repro("MaxPool2dWithMask", sd, c.k, c.s, c.p, c.d, c.ceil_mode, false);
    FTensor self(sd, ACL_FORMAT_NCHW), out(random_view(t, c.out_shape, rng), ACL_FORMAT_NCHW),
        mask(TensorDesc(ACL_INT8, mshape), ACL_FORMAT_NCHW);
    self.fill_uniform(rng);
    out.fill_bytes(rng);
    mask.fill_bytes(rng);
    IntArray k(c.k), s(c.s), p(c.p), d(c.d);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnMaxPool2dWithMaskGetWorkspaceSize(self.get(), k.a, s.a, p.a, d.a, c.ceil_mode, out.get(),
                                                              mask.get(), w, e);
              }, aclnnMaxPool2dWithMask),
              ACL_SUCCESS)
        << r << ": " << aclGetRecentErrMsg();
    out.download();
    mask.download();
    const MaxRef want = ref_max(P, self);
    expect_values(r, out, want.value, true);
    // The expected mask bytes.
    std::vector<uint8_t> bytes(static_cast<size_t>(numel(mshape)), 0);
    const int64_t c1 = (C + 15) / 16;
    size_t q = 0;
    P.for_each_output([&](int64_t n, int64_t ch, const std::vector<int64_t>& o, const auto& tp, int64_t) {
      const int64_t pos = o[0] * P.out_sp(1) + o[1];
      const int64_t arg = want.index[q++];
      if (taps == 1) {
        for (const auto& x : tp) {
          if (P.flat(x.first) != arg) continue;
          const int64_t word = (((n * c1 + ch / 16) * taps + x.second) * groups + pos / 16) * 16 + ch % 16;
          bytes[static_cast<size_t>(word * 2 + (pos % 16) / 8)] |= static_cast<uint8_t>(1u << (pos % 8));
        }
      } else {
        const int32_t v = static_cast<int32_t>(arg);
        std::memcpy(&bytes[static_cast<size_t>(((n * C + ch) * HoWo + pos) * 4)], &v, 4);
      }
    });
    ASSERT_EQ(std::memcmp(bytes.data(), mask.host().data(), bytes.size()), 0) << r << ": mask bytes differ";

    // Backward through the mask equals the scatter to the argmax positions.
    FTensor gout(random_view(t, c.out_shape, rng), ACL_FORMAT_NCHW), gin(random_view(t, c.in_shape, rng), ACL_FORMAT_NCHW);
    gout.fill_uniform(rng);
    gin.fill_bytes(rng);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
                return aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize(gout.get(), self.get(), mask.get(), k.a, s.a,
                                                                      p.a, d.a, c.ceil_mode, gin.get(), w, e);
              }, aclnnMaxPool2dWithMaskBackward),
              ACL_SUCCESS)
        << r << " backward: " << aclGetRecentErrMsg();
    gin.download();
    std::vector<double> gw(static_cast<size_t>(numel(c.in_shape)), 0.0);
    q = 0;
    const Shape in_st = contiguous_strides(c.in_shape);
    P.for_each_output([&](int64_t n, int64_t ch, const std::vector<int64_t>& o, const auto&, int64_t) {
      const Shape ii = P.L.index(P.in_shape, n, ch, P.unflat(want.index[q++]));
      int64_t off = 0;
      for (size_t x = 0; x < ii.size(); ++x) off += ii[x] * in_st[x];
      gw[static_cast<size_t>(off)] += gout.at(P.L.index(P.out_shape, n, ch, o)).as_double();
    });
    expect_values(r + " backward", gin, gw, false, 16);
    if (HasFailure()) return;
  }
}

// ---- AvgPool2d / AvgPool3d ------------------------------------------------------------------------

void sweep_avg(int nd, int iters, uint64_t seed) {
  Rng rng(seed);
  int done = 0;
  for (int iter = 0; done < iters && iter < iters * 4; ++iter) {
    FixedCase c;
    if (!random_fixed_case(rng, nd, false, 1, &c)) continue;
    if (nd == 3) {  // kernel at most the input size
      bool ok = true;
      for (int d = 0; d < 3; ++d)
        ok = ok && c.dims[static_cast<size_t>(d)].k <= c.in_shape[static_cast<size_t>(c.L.spatial_dim(d))];
      if (!ok) continue;
    }
    ++done;
    const aclDataType t = kFloatTypes[static_cast<size_t>(iter) % kFloatTypes.size()];
    const bool cip = rng() % 2;
    const int64_t div = rng() % 4 == 0 ? rnd(rng, -3, 9) : 0;
    const int8_t cube = static_cast<int8_t>(rng() % 3);
    const TensorDesc sd = random_view(t, c.in_shape, rng);
    const std::string r = fixed_repro(nd == 2 ? "AvgPool2d" : "AvgPool3d", sd, c.k, c.s, c.p, c.d, c.ceil_mode, false) +
                          " countIncludePad=" + (cip ? "1" : "0") + " divisorOverride=" + std::to_string(div);
    FTensor self(sd), out(random_view(t, c.out_shape, rng));
    self.fill_uniform(rng);
    out.fill_bytes(rng);
    IntArray k(c.k), s(c.s), p(c.p);
    const aclnnStatus st = nd == 2 ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnAvgPool2dGetWorkspaceSize(self.get(), k.a, s.a, p.a, c.ceil_mode, cip, div, cube, out.get(), w, e);
    }, aclnnAvgPool2d)
                                   : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnAvgPool3dGetWorkspaceSize(self.get(), k.a, s.a, p.a, c.ceil_mode, cip, div, out.get(), w, e);
    }, aclnnAvgPool3d);
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    out.download();
    const RefProblem P = c.problem();
    expect_values(r, out, ref_avg(P, self, cip, div), false, 16);
    if (::testing::Test::HasFailure()) return;

    FTensor gout(random_view(t, c.out_shape, rng)), gin(random_view(t, c.in_shape, rng));
    gout.fill_uniform(rng);
    gin.fill_bytes(rng);
    const aclnnStatus bst = nd == 2 ? run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnAvgPool2dBackwardGetWorkspaceSize(gout.get(), self.get(), k.a, s.a, p.a, c.ceil_mode, cip, div, cube,
                                                    gin.get(), w, e);
    }, aclnnAvgPool2dBackward)
                                    : run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnAvgPool3dBackwardGetWorkspaceSize(gout.get(), self.get(), k.a, s.a, p.a, c.ceil_mode, cip, div,
                                                    gin.get(), w, e);
    }, aclnnAvgPool3dBackward);
    ASSERT_EQ(bst, ACL_SUCCESS) << r << " backward: " << aclGetRecentErrMsg();
    gin.download();
    expect_values(r + " backward", gin, ref_avg_backward(P, gout, cip, div), false, 16);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(AvgPool2d, RandomProblemsAndBackward) { sweep_avg(2, 80, 41); }
TEST(AvgPool3d, RandomProblemsAndBackward) { sweep_avg(3, 45, 42); }

// ---- adaptive pooling ---------------------------------------------------------------------------

void sweep_adaptive(int nd, bool max, int iters, uint64_t seed) {
  Rng rng(seed);
  const char* name = max ? (nd == 2 ? "AdaptiveMaxPool2d" : "AdaptiveMaxPool3d")
                         : (nd == 2 ? "AdaptiveAvgPool2d" : "AdaptiveAvgPool3d");
  for (int iter = 0; iter < iters; ++iter) {
    Layout L{nd, rng() % 4 != 0, max && nd == 2 && rng() % 3 == 0};
    Shape in(static_cast<size_t>(L.rank())), out;
    if (L.batched) in[0] = rnd(rng, 1, 3);
    in[static_cast<size_t>(L.channel_dim())] = rnd(rng, 1, 4);
    std::vector<int64_t> size;
    for (int d = 0; d < nd; ++d) {
      in[static_cast<size_t>(L.spatial_dim(d))] = rnd(rng, 1, nd == 3 ? 7 : 11);
      size.push_back(rnd(rng, 1, nd == 3 ? 5 : 8));
    }
    out = in;
    for (int d = 0; d < nd; ++d) out[static_cast<size_t>(L.spatial_dim(d))] = size[static_cast<size_t>(d)];
    const aclDataType t = max && nd == 2 && iter % 4 == 3 ? ACL_DOUBLE : kFloatTypes[static_cast<size_t>(iter) % 3];
    const aclDataType it = nd == 2 ? ACL_INT64 : (rng() % 2 ? ACL_INT32 : ACL_INT64);
    const aclFormat fmt = L.channels_last ? ACL_FORMAT_NHWC : ACL_FORMAT_ND;
    const TensorDesc sd = random_view(t, in, rng);
    const std::string r = std::string(name) + " self=" + sd.str() + (L.channels_last ? " NHWC" : "") +
                          " outputSize=" + vec_str(size);
    RefProblem P;
    P.L = L;
    P.in_shape = in;
    P.out_shape = out;
    P.window = [&](int d, int64_t o) {
      return ref_adaptive_window(o, in[static_cast<size_t>(L.spatial_dim(d))], size[static_cast<size_t>(d)]);
    };
    P.kernel.assign(static_cast<size_t>(nd), 1);
    FTensor self(sd, fmt), o(random_view(t, out, rng), fmt), idx(random_view(it, out, rng), fmt);
    if (max) self.fill_random(rng, FillOptions{0.05, 0.4});
    else self.fill_uniform(rng);
    o.fill_bytes(rng);
    idx.fill_bytes(rng);
    IntArray sa(size);
    aclnnStatus st;
    if (max) {
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return nd == 2 ? aclnnAdaptiveMaxPool2dGetWorkspaceSize(self.get(), sa.a, o.get(), idx.get(), w, e)
                       : aclnnAdaptiveMaxPool3dGetWorkspaceSize(self.get(), sa.a, o.get(), idx.get(), w, e);
      }, nd == 2 ? aclnnAdaptiveMaxPool2d : aclnnAdaptiveMaxPool3d);
    } else {
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return nd == 2 ? aclnnAdaptiveAvgPool2dGetWorkspaceSize(self.get(), sa.a, o.get(), w, e)
                       : aclnnAdaptiveAvgPool3dGetWorkspaceSize(self.get(), sa.a, o.get(), w, e);
      }, nd == 2 ? aclnnAdaptiveAvgPool2d : aclnnAdaptiveAvgPool3d);
    }
    ASSERT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
    o.download();
    idx.download();
    if (max) {
      const MaxRef want = ref_max(P, self);
      expect_values(r, o, to_row_major(P, want.value), true);
      expect_indices(r, idx, to_row_major(P, want.index));
    } else {
      expect_values(r, o, ref_avg(P, self, true, 0), false, 16);
    }
    if (::testing::Test::HasFailure()) return;

    if (t == ACL_DOUBLE || L.channels_last) continue;  // the backward ops take float types, ND
    FTensor gout(random_view(t, out, rng)), gin(random_view(t, in, rng));
    gout.fill_uniform(rng);
    gin.fill_bytes(rng);
    if (max) {
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return nd == 2 ? aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(gout.get(), self.get(), idx.get(), gin.get(), w, e)
                       : aclnnAdaptiveMaxPool3dBackwardGetWorkspaceSize(gout.get(), self.get(), idx.get(), gin.get(), w, e);
      }, nd == 2 ? aclnnAdaptiveMaxPool2dBackward : aclnnAdaptiveMaxPool3dBackward);
    } else {
      st = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
        return nd == 2 ? aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize(gout.get(), self.get(), gin.get(), w, e)
                       : aclnnAdaptiveAvgPool3dBackwardGetWorkspaceSize(gout.get(), self.get(), gin.get(), w, e);
      }, nd == 2 ? aclnnAdaptiveAvgPool2dBackward : aclnnAdaptiveAvgPool3dBackward);
    }
    ASSERT_EQ(st, ACL_SUCCESS) << r << " backward: " << aclGetRecentErrMsg();
    gin.download();
    const std::vector<double> gw = max ? ref_max_backward(P, gout, idx) : ref_avg_backward(P, gout, false, 0);
    expect_values(r + " backward", gin, gw, false, 16);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(AdaptiveAvgPool2d, RandomProblemsAndBackward) { sweep_adaptive(2, false, 50, 51); }
TEST(AdaptiveAvgPool3d, RandomProblemsAndBackward) { sweep_adaptive(3, false, 35, 52); }
TEST(AdaptiveMaxPool2d, RandomProblemsAndBackward) { sweep_adaptive(2, true, 50, 53); }
TEST(AdaptiveMaxPool3d, RandomProblemsAndBackward) { sweep_adaptive(3, true, 35, 54); }

TEST(Pooling, LargeProblemUsesThreads) {
  Rng rng(61);
  FTensor self(TensorDesc(ACL_FLOAT, {2, 8, 33, 35})), out(TensorDesc(ACL_FLOAT, {2, 8, 17, 18}));
  self.fill_uniform(rng);
  IntArray k({3, 3}), s({2, 2}), p({1, 1});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
              return aclnnAvgPool2dGetWorkspaceSize(self.get(), k.a, s.a, p.a, false, true, 0, 0, out.get(), w, e);
            }, aclnnAvgPool2d),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  out.download();
  FixedCase c;
  c.L = Layout{2, true, false};
  c.in_shape = {2, 8, 33, 35};
  c.out_shape = {2, 8, 17, 18};
  c.dims = {FixedDim{3, 2, 1, 1, 1}, FixedDim{3, 2, 1, 1, 1}};
  expect_values("AvgPool2d large", out, ref_avg(c.problem(), self, true, 0), false, 16);
}

// ---- bad inputs ---------------------------------------------------------------------------------

TEST(Pooling, BadArguments) {
  FTensor self(TensorDesc(ACL_FLOAT, {1, 2, 6, 6}), ACL_FORMAT_NCHW), out(TensorDesc(ACL_FLOAT, {1, 2, 3, 3}), ACL_FORMAT_NCHW);
  FTensor idx(TensorDesc(ACL_INT32, {1, 2, 3, 3}), ACL_FORMAT_NCHW), idx_f(TensorDesc(ACL_FLOAT, {1, 2, 3, 3}), ACL_FORMAT_NCHW);
  FTensor out_bad(TensorDesc(ACL_FLOAT, {1, 2, 2, 3}), ACL_FORMAT_NCHW), out_half(TensorDesc(ACL_FLOAT16, {1, 2, 3, 3}), ACL_FORMAT_NCHW);
  FTensor self_int(TensorDesc(ACL_INT32, {1, 2, 6, 6})), self_5d(TensorDesc(ACL_FLOAT, {1, 1, 2, 6, 6}));
  IntArray k2({2, 2}), k3({2, 2, 2}), k0({0, 2}), s2({2, 2}), s_bad({2, 2, 2}), p0({0, 0}), p_big({2, 0}), d1({1, 1}), empty({});
  auto mp = [&](const aclTensor* s, aclIntArray* k, aclIntArray* st, aclIntArray* p, aclIntArray* d, aclTensor* o,
                aclTensor* i) {
    return [=](uint64_t* w, aclOpExecutor** e) {
      return aclnnMaxPool2dWithIndicesGetWorkspaceSize(s, k, st, p, d, false, o, i, w, e);
    };
  };
  expect_phase1_error("null self", ACLNN_ERR_PARAM_NULLPTR, "self", mp(nullptr, k2.a, s2.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("null kernel", ACLNN_ERR_PARAM_NULLPTR, "kernelSize", mp(self.get(), nullptr, s2.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("null indices", ACLNN_ERR_PARAM_NULLPTR, "indices", mp(self.get(), k2.a, s2.a, p0.a, d1.a, out.get(), nullptr));
  expect_phase1_error("int self", ACLNN_ERR_PARAM_INVALID, "self dtype int32", mp(self_int.get(), k2.a, s2.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("5-d self", ACLNN_ERR_PARAM_INVALID, "expected 3 or 4", mp(self_5d.get(), k2.a, s2.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("kernel 0", ACLNN_ERR_PARAM_INVALID, "kernelSize", mp(self.get(), k0.a, s2.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("kernel 3 values", ACLNN_ERR_PARAM_INVALID, "kernelSize has 3 values", mp(self.get(), k3.a, s2.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("stride 3 values", ACLNN_ERR_PARAM_INVALID, "stride has 3 values", mp(self.get(), k2.a, s_bad.a, p0.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("padding > k/2", ACLNN_ERR_PARAM_INVALID, "padding", mp(self.get(), k2.a, s2.a, p_big.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("padding empty", ACLNN_ERR_PARAM_INVALID, "padding has 0 values", mp(self.get(), k2.a, s2.a, empty.a, d1.a, out.get(), idx.get()));
  expect_phase1_error("out shape", ACLNN_ERR_PARAM_INVALID, "out has shape [1, 2, 2, 3]", mp(self.get(), k2.a, s2.a, p0.a, d1.a, out_bad.get(), idx.get()));
  expect_phase1_error("out dtype", ACLNN_ERR_PARAM_INVALID, "out has dtype float16", mp(self.get(), k2.a, s2.a, p0.a, d1.a, out_half.get(), idx.get()));
  expect_phase1_error("indices dtype", ACLNN_ERR_PARAM_INVALID, "indices dtype float32", mp(self.get(), k2.a, s2.a, p0.a, d1.a, out.get(), idx_f.get()));

  // MaxPool: autoPad, dilations, pads sum.
  IntArray d2({2, 2}), pads4({2, 0, 1, 0});
  auto onnx = [&](int64_t auto_pad, aclIntArray* p, aclIntArray* d) {
    return [=, &self, &out, &k2, &s2](uint64_t* w, aclOpExecutor** e) {
      return aclnnMaxPoolGetWorkspaceSize(self.get(), k2.a, s2.a, auto_pad, p, d, 0, out.get(), w, e);
    };
  };
  expect_phase1_error("autoPad", ACLNN_ERR_PARAM_INVALID, "autoPad", onnx(1, p0.a, d1.a));
  expect_phase1_error("dilations", ACLNN_ERR_PARAM_INVALID, "dilations", onnx(0, p0.a, d2.a));
  expect_phase1_error("pads sum", ACLNN_ERR_PARAM_INVALID, "pads", onnx(0, pads4.a, d1.a));

  // AvgPool2d: cubeMathType, output shape; AvgPool3d kernel larger than the input.
  auto avg = [&](int8_t cube, aclTensor* o) {
    return [=, &self, &k2, &s2, &p0](uint64_t* w, aclOpExecutor** e) {
      return aclnnAvgPool2dGetWorkspaceSize(self.get(), k2.a, s2.a, p0.a, false, true, 0, cube, o, w, e);
    };
  };
  expect_phase1_error("cubeMathType", ACLNN_ERR_PARAM_INVALID, "cubeMathType", avg(9, out.get()));
  expect_phase1_error("avg out shape", ACLNN_ERR_PARAM_INVALID, "out has shape", avg(0, out_bad.get()));
  FTensor s3(TensorDesc(ACL_FLOAT, {1, 1, 2, 6, 6})), o3(TensorDesc(ACL_FLOAT, {1, 1, 1, 2, 2}));
  IntArray k33({3, 3, 3}), p33({1, 1, 1});
  expect_phase1_error("avg3d kernel > input", ACLNN_ERR_PARAM_INVALID, "kernelSize[0] is 3",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnAvgPool3dGetWorkspaceSize(s3.get(), k33.a, k33.a, p33.a, false, true, 0, o3.get(), w, e);
                      });

  // Adaptive: outputSize length and values, indices dtype.
  IntArray size3({3, 3, 3}), size_neg({3, -1}), size33({3, 3});
  FTensor idx64(TensorDesc(ACL_INT64, {1, 2, 3, 3}));
  expect_phase1_error("adaptive size length", ACLNN_ERR_PARAM_INVALID, "outputSize has 3 values",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnAdaptiveAvgPool2dGetWorkspaceSize(self.get(), size3.a, out.get(), w, e); });
  expect_phase1_error("adaptive size negative", ACLNN_ERR_PARAM_INVALID, "outputSize",
                      [&](uint64_t* w, aclOpExecutor** e) { return aclnnAdaptiveAvgPool2dGetWorkspaceSize(self.get(), size_neg.a, out.get(), w, e); });
  expect_phase1_error("adaptive max int32 indices", ACLNN_ERR_PARAM_INVALID, "expected int64",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnAdaptiveMaxPool2dGetWorkspaceSize(self.get(), size33.a, out.get(), idx.get(), w, e);
                      });
  expect_phase1_error("adaptive max null", ACLNN_ERR_PARAM_NULLPTR, "indicesOut",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnAdaptiveMaxPool2dGetWorkspaceSize(self.get(), size33.a, out.get(), nullptr, w, e);
                      });
  // Backward: gradOutput shape, gradInput shape.
  FTensor gin_bad(TensorDesc(ACL_FLOAT, {1, 2, 6, 5}));
  expect_phase1_error("backward gradOutput shape", ACLNN_ERR_PARAM_INVALID, "gradOutput has shape",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(out_bad.get(), self.get(), idx.get(), k2.a, s2.a,
                                                                                 p0.a, d1.a, false, self.get(), w, e);
                      });
  expect_phase1_error("backward gradInput shape", ACLNN_ERR_PARAM_INVALID, "gradInput has shape",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(out.get(), self.get(), idx.get(), k2.a, s2.a,
                                                                                 p0.a, d1.a, false, gin_bad.get(), w, e);
                      });
  // Mask: indices shape and dtype, dilation.
  FTensor mask_bad(TensorDesc(ACL_INT8, {1, 2, 4, 32}), ACL_FORMAT_NCHW);
  expect_phase1_error("mask shape", ACLNN_ERR_PARAM_INVALID, "indices has shape",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnMaxPool2dWithMaskGetWorkspaceSize(self.get(), k2.a, s2.a, p0.a, d1.a, false, out.get(),
                                                                      mask_bad.get(), w, e);
                      });
  expect_phase1_error("mask dtype", ACLNN_ERR_PARAM_INVALID, "expected int8",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnMaxPool2dWithMaskGetWorkspaceSize(self.get(), k2.a, s2.a, p0.a, d1.a, false, out.get(),
                                                                      idx.get(), w, e);
                      });
  expect_phase1_error("mask dilation", ACLNN_ERR_PARAM_INVALID, "dilation",
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnMaxPool2dWithMaskGetWorkspaceSize(self.get(), k2.a, s2.a, p0.a, d2.a, false, out.get(),
                                                                      mask_bad.get(), w, e);
                      });
}

}  // namespace
