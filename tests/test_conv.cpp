// Convolution, ConvDepthwise2d, ConvTbc and ConvolutionBackward against a reference written here from
// the definition. Every (input position x, output position o, kernel offset k) triple of one spatial dim
// satisfies  x = o * stride - pad_begin + k * dilation   (normal)  or  o = x * stride - pad_begin +
// k * dilation  (transposed); the forward sum, gradInput, gradWeight and gradBias all run over the same
// triples, in double. Float32 results may differ by the float32 rounding of the sum (bounded by
// (terms + 4) * 2^-24 * sum |terms|) plus the final rounding to the output dtype.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "op_test_util.h"

namespace {

using namespace optest;

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// Values in [-4, 4] (half of them small integers): float16 sums stay finite.
void fill(Tensor& t, Rng& rng) {
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  const size_t es = dtype_size(t.desc().dtype);
  for (int64_t k = 0; k < t.desc().storage_elems(); ++k) {
    const double v = rng() % 2 ? std::round(u(rng)) : u(rng);
    store(t.desc().dtype, t.host().data() + k * es, Num::real(v));
  }
  t.upload();
}

struct IntArray {
  explicit IntArray(const std::vector<int64_t>& v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArray() { aclDestroyIntArray(a); }
  IntArray(const IntArray&) = delete;
  IntArray& operator=(const IntArray&) = delete;
  aclIntArray* a;
};

std::string vec_str(const std::vector<int64_t>& v) { return shape_str(v); }

// ---- geometry and the reference ------------------------------------------------------------------------

struct Geo {
  int nd = 2;
  int64_t n = 1, ic = 1, oc = 1, groups = 1;
  bool transposed = false;
  Shape in, k, out, stride, pad_l, pad_r, dil, out_pad;  // spatial
  Shape input_shape() const { return cat({n, ic}, in); }
  Shape weight_shape() const { return transposed ? cat({ic, oc / groups}, k) : cat({oc, ic / groups}, k); }
  Shape output_shape() const { return cat({n, oc}, out); }
  static Shape cat(Shape a, const Shape& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
  void infer_out() {
    out.clear();
    for (int i = 0; i < nd; ++i) {
      const size_t s = static_cast<size_t>(i);
      const int64_t ext = dil[s] * (k[s] - 1) + 1;
      out.push_back(transposed ? (in[s] - 1) * stride[s] - pad_l[s] - pad_r[s] + ext + out_pad[s]
                               : (in[s] + pad_l[s] + pad_r[s] - ext) / stride[s] + 1);
    }
  }
  std::string str() const {
    return std::string(transposed ? "transposed " : "") + "N=" + std::to_string(n) + " C=" + std::to_string(ic) +
           " OC=" + std::to_string(oc) + " groups=" + std::to_string(groups) + " in=" + vec_str(in) +
           " kernel=" + vec_str(k) + " stride=" + vec_str(stride) + " pad=" + vec_str(pad_l) + "/" + vec_str(pad_r) +
           " dilation=" + vec_str(dil) + (transposed ? " outputPadding=" + vec_str(out_pad) : "");
  }
};

// Calls f(x, o, k) (flat spatial indices) for every triple of the geometry.
void for_each_triple(const Geo& g, const std::function<void(int64_t, int64_t, int64_t)>& f) {
  const Shape& xs = g.in;
  for_each_index(g.k, [&](const Shape& kk) {
    for_each_index(g.transposed ? g.in : g.out, [&](const Shape& src) {
      Shape x(static_cast<size_t>(g.nd)), o(static_cast<size_t>(g.nd));
      for (int i = 0; i < g.nd; ++i) {
        const size_t s = static_cast<size_t>(i);
        const int64_t v = src[s] * g.stride[s] - g.pad_l[s] + kk[s] * g.dil[s];
        if (g.transposed) {
          if (v < 0 || v >= g.out[s]) return;
          x[s] = src[s];
          o[s] = v;
        } else {
          if (v < 0 || v >= xs[s]) return;
          x[s] = v;
          o[s] = src[s];
        }
      }
      auto flat = [](const Shape& idx, const Shape& shape) {
        int64_t r = 0;
        for (size_t i = 0; i < idx.size(); ++i) r = r * shape[i] + idx[i];
        return r;
      };
      f(flat(x, g.in), flat(o, g.out), flat(kk, g.k));
    });
  });
}

// Dense double copy of a tensor's view (logical order `perm`: logical dim i is tensor dim perm[i]).
std::vector<double> values(const Tensor& t, const std::vector<int>& perm = {}) {
  const Shape& s = t.desc().shape;
  Shape ls(s.size());
  for (size_t i = 0; i < s.size(); ++i) ls[i] = s[perm.empty() ? i : static_cast<size_t>(perm[i])];
  std::vector<double> v;
  for_each_index(ls, [&](const Shape& li) {
    Shape ti(s.size());
    for (size_t i = 0; i < s.size(); ++i) ti[perm.empty() ? i : static_cast<size_t>(perm[i])] = li[i];
    v.push_back(t.at(ti).as_double());
  });
  return v;
}

struct Sums {
  std::vector<double> sum, mag;
  std::vector<int64_t> terms;
  explicit Sums(size_t n) : sum(n, 0), mag(n, 0), terms(n, 0) {}
  void add(size_t i, double v) {
    sum[i] += v;
    mag[i] += std::fabs(v);
    ++terms[i];
  }
};

// Reference: forward output, gradInput, gradWeight, gradBias over the geometry's index spaces.
struct Reference {
  Sums out, gi, gw, gb;
  Reference(const Geo& g, const std::vector<double>& x, const std::vector<double>& w, const std::vector<double>* bias,
            const std::vector<double>* gy)
      : out(static_cast<size_t>(numel(g.output_shape()))), gi(static_cast<size_t>(numel(g.input_shape()))),
        gw(static_cast<size_t>(numel(g.weight_shape()))), gb(static_cast<size_t>(g.oc)) {
    const int64_t xs = numel(g.in), os = numel(g.out), ks = numel(g.k);
    const int64_t icg = g.ic / g.groups, ocg = g.oc / g.groups;
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t gr = 0; gr < g.groups; ++gr)
        for (int64_t a = 0; a < icg; ++a)
          for (int64_t b = 0; b < ocg; ++b) {
            const int64_t ic = gr * icg + a, oc = gr * ocg + b;
            const int64_t wbase = g.transposed ? (ic * ocg + b) * ks : (oc * icg + a) * ks;
            const int64_t xbase = (n * g.ic + ic) * xs, obase = (n * g.oc + oc) * os;
            for_each_triple(g, [&](int64_t xi, int64_t oi, int64_t ki) {
              const double wv = w[static_cast<size_t>(wbase + ki)], xv = x[static_cast<size_t>(xbase + xi)];
              out.add(static_cast<size_t>(obase + oi), xv * wv);
              if (gy) {
                const double gv = (*gy)[static_cast<size_t>(obase + oi)];
                gi.add(static_cast<size_t>(xbase + xi), gv * wv);
                gw.add(static_cast<size_t>(wbase + ki), gv * xv);
              }
            });
          }
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t oc = 0; oc < g.oc; ++oc)
        for (int64_t o = 0; o < os; ++o) {
          const size_t i = static_cast<size_t>((n * g.oc + oc) * os + o);
          if (bias) out.add(i, (*bias)[static_cast<size_t>(oc)]);
          if (gy) gb.add(static_cast<size_t>(oc), (*gy)[i]);
        }
  }
};

double spacing(aclDataType t, double v) {
  int e = 0;
  std::frexp(std::max(std::fabs(v), 1e-300), &e);
  switch (t) {
    case ACL_FLOAT16: return std::ldexp(1.0, std::max(e - 11, -24));
    case ACL_BF16: return std::ldexp(1.0, std::max(e - 8, -133));
    default: return std::ldexp(1.0, std::max(e - 24, -149));
  }
}

// Compares tensor t (logical order perm) with the sums.
void expect_close(const std::string& repro, const char* what, const Tensor& t, const Sums& s,
                  const std::vector<int>& perm = {}) {
  const std::vector<double> got = values(t, perm);
  ASSERT_EQ(got.size(), s.sum.size()) << repro;
  for (size_t i = 0; i < got.size(); ++i) {
    const double tol = 2.0 * static_cast<double>(s.terms[i] + 4) * std::ldexp(1.0, -24) * s.mag[i] +
                       spacing(t.desc().dtype, s.sum[i]);
    if (!(std::fabs(got[i] - s.sum[i]) <= tol)) {
      ADD_FAILURE() << repro << ": " << what << "[" << i << "] is " << got[i] << ", expected " << s.sum[i]
                    << " (tolerance " << tol << ")";
      return;
    }
  }
}

// ---- random geometries ----------------------------------------------------------------------------

Geo random_geo(Rng& rng, bool allow_pairs) {
  Geo g;
  g.nd = 1 + static_cast<int>(rng() % 3);
  g.transposed = rng() % 3 == 0;
  g.groups = 1 + static_cast<int64_t>(rng() % 3);
  g.n = static_cast<int64_t>(rng() % 3) + (rng() % 9 == 0 ? 0 : 1);
  g.ic = g.groups * (1 + static_cast<int64_t>(rng() % 3));
  g.oc = g.groups * (1 + static_cast<int64_t>(rng() % 3));
  const bool pairs = allow_pairs && g.nd <= 2 && rng() % 3 == 0;
  for (int i = 0; i < g.nd; ++i) {
    const int64_t big = g.nd == 1 ? 9 : g.nd == 2 ? 6 : 4;
    g.k.push_back(1 + static_cast<int64_t>(rng() % 3));
    g.stride.push_back(1 + static_cast<int64_t>(rng() % 3));
    g.dil.push_back(1 + static_cast<int64_t>(rng() % 2));
    g.pad_l.push_back(static_cast<int64_t>(rng() % 3));
    g.pad_r.push_back(pairs ? static_cast<int64_t>(rng() % 3) : g.pad_l.back());
    const int64_t ext = g.dil.back() * (g.k.back() - 1) + 1;
    int64_t in = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(big));
    if (!g.transposed) in = std::max(in, ext - g.pad_l.back() - g.pad_r.back());
    g.in.push_back(in);
    const int64_t op_limit = std::max(g.stride.back(), g.dil.back());
    g.out_pad.push_back(g.transposed ? static_cast<int64_t>(rng() % static_cast<uint64_t>(op_limit)) : 0);
  }
  g.infer_out();
  for (int64_t o : g.out)
    if (o <= 0) {  // a transposed geometry whose padding eats the output: retry without padding
      g.pad_l.assign(g.pad_l.size(), 0);
      g.pad_r = g.pad_l;
      g.infer_out();
      break;
    }
  return g;
}

std::vector<int64_t> padding_of(const Geo& g) {
  if (g.pad_l == g.pad_r) return g.pad_l;
  std::vector<int64_t> p;
  for (int i = 0; i < g.nd; ++i) {
    p.push_back(g.pad_l[static_cast<size_t>(i)]);
    p.push_back(g.pad_r[static_cast<size_t>(i)]);
  }
  return p;
}

// A dense view, or every other element of a larger storage (an operand that must be copied).
TensorDesc desc_for(aclDataType t, const Shape& shape, bool strided) {
  if (!strided || shape.empty()) return TensorDesc(t, shape);
  Shape big = shape;
  big.back() *= 2;
  Shape st = contiguous_strides(big);
  st.back() = 2;
  return TensorDesc(t, shape, st, 1);
}

TEST(Convolution, RandomGeometriesDtypesAndViews) {
  Rng rng(31);
  for (int iter = 0; iter < 120; ++iter) {
    const Geo g = random_geo(rng, true);
    const aclDataType ti = kFloats[rng() % 3], tw = kFloats[rng() % 3], to = kFloats[rng() % 3];
    const bool has_bias = rng() % 2;
    Tensor input(desc_for(ti, g.input_shape(), rng() % 4 == 0)), weight(desc_for(tw, g.weight_shape(), rng() % 4 == 0));
    Tensor bias(TensorDesc(kFloats[rng() % 3], {g.oc})), out(desc_for(to, g.output_shape(), rng() % 4 == 0));
    fill(input, rng);
    fill(weight, rng);
    fill(bias, rng);
    out.fill(Num::real(NAN));
    const std::vector<uint8_t> before = out.host();
    IntArray st(g.stride), pad(padding_of(g)), dil(g.dil), op(g.out_pad);
    const std::string repro = "Convolution " + g.str() + " input=" + input.desc().str() + " weight=" +
                              weight.desc().str() + (has_bias ? " bias=" + bias.desc().str() : "") +
                              " output=" + out.desc().str();
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnConvolutionGetWorkspaceSize(input.get(), weight.get(), has_bias ? bias.get() : nullptr, st.a, pad.a,
                                              dil.a, g.transposed, op.a, g.groups, out.get(), 1, w, e);
    }, aclnnConvolution), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    const std::vector<double> x = values(input), w = values(weight), b = values(bias);
    const Reference ref(g, x, w, has_bias ? &b : nullptr, nullptr);
    expect_close(repro, "output", out, ref.out);
    const std::string outside = writes_outside_view(out, before);
    EXPECT_TRUE(outside.empty()) << repro << ": wrote outside the output view:" << outside;
    if (HasFailure()) return;
  }
}

TEST(ConvolutionBackward, RandomGeometriesMasksAndDtypes) {
  Rng rng(32);
  for (int iter = 0; iter < 100; ++iter) {
    const Geo g = random_geo(rng, true);
    const aclDataType t = kFloats[rng() % 3];
    bool mask[3] = {rng() % 3 != 0, rng() % 3 != 0, rng() % 3 != 0};
    if (!mask[0] && !mask[1] && !mask[2]) mask[iter % 3] = true;
    Tensor gy(desc_for(t, g.output_shape(), rng() % 4 == 0)), input(desc_for(t, g.input_shape(), false));
    Tensor weight(desc_for(t, g.weight_shape(), false));
    Tensor gi(desc_for(t, g.input_shape(), rng() % 4 == 0)), gw(TensorDesc(t, g.weight_shape())), gb(TensorDesc(t, {g.oc}));
    fill(gy, rng);
    fill(input, rng);
    fill(weight, rng);
    for (Tensor* o : {&gi, &gw, &gb}) o->fill(Num::real(NAN));
    IntArray st(g.stride), pad(padding_of(g)), dil(g.dil), op(g.out_pad), bias_sizes({g.oc});
    const bool mask_values[3] = {mask[0], mask[1], mask[2]};
    aclBoolArray* out_mask = aclCreateBoolArray(mask_values, 3);
    const std::string repro = "ConvolutionBackward " + g.str() + " gradOutput=" + gy.desc().str() + " input=" +
                              input.desc().str() + " gradInput=" + gi.desc().str() + " mask=" +
                              std::to_string(mask[0]) + std::to_string(mask[1]) + std::to_string(mask[2]);
    const aclnnStatus st_run = run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnConvolutionBackwardGetWorkspaceSize(gy.get(), input.get(), weight.get(), bias_sizes.a, st.a, pad.a,
                                                      dil.a, g.transposed, op.a, static_cast<int>(g.groups), out_mask,
                                                      1, mask[0] ? gi.get() : nullptr, mask[1] ? gw.get() : nullptr,
                                                      mask[2] ? gb.get() : nullptr, w, e);
    }, aclnnConvolutionBackward);
    aclDestroyBoolArray(out_mask);
    ASSERT_EQ(st_run, ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    const std::vector<double> x = values(input), w = values(weight), dy = values(gy);
    const Reference ref(g, x, w, nullptr, &dy);
    if (mask[0]) {
      gi.download();
      expect_close(repro, "gradInput", gi, ref.gi);
    }
    if (mask[1]) {
      gw.download();
      expect_close(repro, "gradWeight", gw, ref.gw);
    }
    if (mask[2]) {
      gb.download();
      expect_close(repro, "gradBias", gb, ref.gb);
    }
    if (HasFailure()) return;
  }
}

TEST(ConvDepthwise2d, MultiplierAndStrides) {
  Rng rng(33);
  for (int iter = 0; iter < 20; ++iter) {
    Geo g;
    g.nd = 2;
    g.n = 1 + static_cast<int64_t>(rng() % 2);
    g.ic = 1 + static_cast<int64_t>(rng() % 4);
    g.groups = g.ic;
    g.oc = g.ic * (1 + static_cast<int64_t>(rng() % 2));
    g.k = {1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 3)};
    g.stride = {1 + static_cast<int64_t>(rng() % 2), 1 + static_cast<int64_t>(rng() % 2)};
    g.dil = {1 + static_cast<int64_t>(rng() % 2), 1};
    g.pad_l = {static_cast<int64_t>(rng() % 2), static_cast<int64_t>(rng() % 2)};
    g.pad_r = g.pad_l;
    g.out_pad = {0, 0};
    g.in = {5 + static_cast<int64_t>(rng() % 3), 4 + static_cast<int64_t>(rng() % 3)};
    g.infer_out();
    const aclDataType t = kFloats[rng() % 3];
    Tensor self(TensorDesc(t, g.input_shape())), weight(TensorDesc(t, g.weight_shape()));
    Tensor bias(TensorDesc(t, {g.oc})), out(TensorDesc(t, g.output_shape()));
    fill(self, rng);
    fill(weight, rng);
    fill(bias, rng);
    IntArray ks(g.k), st(g.stride), pad(g.pad_l), dil(g.dil);
    const std::string repro = "ConvDepthwise2d " + g.str() + " dtype=" + dtype_name(t);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnConvDepthwise2dGetWorkspaceSize(self.get(), weight.get(), ks.a, bias.get(), st.a, pad.a, dil.a,
                                                  out.get(), 0, w, e);
    }, aclnnConvDepthwise2d), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    const std::vector<double> x = values(self), w = values(weight), b = values(bias);
    expect_close(repro, "out", out, Reference(g, x, w, &b, nullptr).out);
    if (HasFailure()) return;
  }
}

TEST(ConvTbc, TimeBatchChannelLayouts) {
  Rng rng(34);
  for (int iter = 0; iter < 20; ++iter) {
    Geo g;
    g.nd = 1;
    g.n = 1 + static_cast<int64_t>(rng() % 3);
    g.ic = 1 + static_cast<int64_t>(rng() % 4);
    g.oc = 1 + static_cast<int64_t>(rng() % 4);
    g.k = {1 + static_cast<int64_t>(rng() % 3)};
    g.stride = {1};
    g.dil = {1};
    g.pad_l = {static_cast<int64_t>(rng() % 3)};
    g.pad_r = g.pad_l;
    g.out_pad = {0};
    g.in = {std::max<int64_t>(g.k[0], 2 + static_cast<int64_t>(rng() % 5))};
    g.infer_out();
    const aclDataType t = kFloats[rng() % 3];
    Tensor self(TensorDesc(t, {g.in[0], g.n, g.ic})), weight(TensorDesc(t, {g.k[0], g.ic, g.oc}));
    Tensor bias(TensorDesc(t, {g.oc})), out(TensorDesc(t, {g.out[0], g.n, g.oc}));
    fill(self, rng);
    fill(weight, rng);
    fill(bias, rng);
    const std::string repro = "ConvTbc " + g.str() + " dtype=" + dtype_name(t);
    ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
      return aclnnConvTbcGetWorkspaceSize(self.get(), weight.get(), bias.get(), g.pad_l[0], out.get(), 0, w, e);
    }, aclnnConvTbc), ACL_SUCCESS) << repro << ": " << aclGetRecentErrMsg();
    out.download();
    const std::vector<double> x = values(self, {1, 2, 0}), w = values(weight, {2, 1, 0}), b = values(bias);
    expect_close(repro, "out", out, Reference(g, x, w, &b, nullptr).out, {1, 2, 0});
    if (HasFailure()) return;
  }
}

TEST(Convolution, EmptyReductionGivesBias) {
  // No input channels: every output element is its channel's bias.
  Tensor input(TensorDesc(ACL_FLOAT, {2, 0, 4, 4})), weight(TensorDesc(ACL_FLOAT, {3, 0, 3, 3}));
  Tensor bias(TensorDesc(ACL_FLOAT, {3})), out(TensorDesc(ACL_FLOAT, {2, 3, 2, 2}));
  for (int64_t c = 0; c < 3; ++c) bias.set({c}, Num::real(static_cast<double>(c) + 0.5));
  bias.upload();
  out.fill(Num::real(NAN));
  IntArray st({1, 1}), pad({0, 0}), dil({1, 1}), op({0, 0});
  ASSERT_EQ(run_two_phase([&](uint64_t* w, aclOpExecutor** e) {
    return aclnnConvolutionGetWorkspaceSize(input.get(), weight.get(), bias.get(), st.a, pad.a, dil.a, false, op.a, 1,
                                            out.get(), 0, w, e);
  }, aclnnConvolution), ACL_SUCCESS) << aclGetRecentErrMsg();
  out.download();
  for_each_index({2, 3, 2, 2}, [&](const Shape& i) { EXPECT_EQ(out.at(i).f, static_cast<double>(i[1]) + 0.5); });
}

TEST(Convolution, BadArguments) {
  Tensor x(TensorDesc(ACL_FLOAT, {1, 4, 5, 5})), w(TensorDesc(ACL_FLOAT, {6, 2, 3, 3})), y(TensorDesc(ACL_FLOAT, {1, 6, 3, 3}));
  Tensor w3(TensorDesc(ACL_FLOAT, {6, 3, 3, 3})), yb(TensorDesc(ACL_FLOAT, {1, 6, 4, 4})), bad_bias(TensorDesc(ACL_FLOAT, {5}));
  Tensor xi(TensorDesc(ACL_INT32, {1, 4, 5, 5})), x2(TensorDesc(ACL_FLOAT, {4, 5})), wbig(TensorDesc(ACL_FLOAT, {6, 2, 7, 7}));
  IntArray s1({1, 1}), s0({0, 1}), p0({0, 0}), p3({0, 0, 0}), d1({1, 1}), op({0, 0}), s2({2, 2}), op_bad({2, 0});
  const auto kInvalid = ACLNN_ERR_PARAM_INVALID;
  auto conv = [&](const Tensor& in, const Tensor& wt, const Tensor* b, aclIntArray* st, aclIntArray* pd, bool tr,
                  aclIntArray* o, int64_t groups, const Tensor& out) {
    return [&in, &wt, &out, &d1, b, st, pd, tr, o, groups](uint64_t* ws, aclOpExecutor** e) {
      return aclnnConvolutionGetWorkspaceSize(in.get(), wt.get(), b ? b->get() : nullptr, st, pd, d1.a, tr, o, groups,
                                              out.get(), 0, ws, e);
    };
  };
  expect_phase1_error("null stride", ACLNN_ERR_PARAM_NULLPTR, "stride", conv(x, w, nullptr, nullptr, p0.a, false, op.a, 2, y));
  expect_phase1_error("groups", kInvalid, "input has 4 channels", conv(x, w, nullptr, s1.a, p0.a, false, op.a, 1, y));
  expect_phase1_error("groups range", kInvalid, "groups is 0", conv(x, w, nullptr, s1.a, p0.a, false, op.a, 0, y));
  expect_phase1_error("stride 0", kInvalid, "stride[0] is 0", conv(x, w, nullptr, s0.a, p0.a, false, op.a, 2, y));
  expect_phase1_error("padding length", kInvalid, "padding has 3 values", conv(x, w, nullptr, s1.a, p3.a, false, op.a, 2, y));
  expect_phase1_error("output shape", kInvalid, "output has shape [1, 6, 4, 4]", conv(x, w, nullptr, s1.a, p0.a, false, op.a, 2, yb));
  expect_phase1_error("bias", kInvalid, "bias has shape [5]", conv(x, w, &bad_bias, s1.a, p0.a, false, op.a, 2, y));
  expect_phase1_error("dtype", kInvalid, "input dtype int32", conv(xi, w, nullptr, s1.a, p0.a, false, op.a, 2, y));
  expect_phase1_error("rank", kInvalid, "input has 2 dims", conv(x2, w, nullptr, s1.a, p0.a, false, op.a, 2, y));
  expect_phase1_error("kernel too large", kInvalid, "smaller than the dilated kernel", conv(x, wbig, nullptr, s1.a, p0.a, false, op.a, 2, y));
  expect_phase1_error("transposed channels", kInvalid, "transposed", conv(x, w3, nullptr, s1.a, p0.a, true, op.a, 1, y));
  expect_phase1_error("outputPadding", kInvalid, "outputPadding[0] is 2", conv(x, w, nullptr, s2.a, p0.a, true, op_bad.a, 1, y));
  expect_phase1_error("cubeMathType", kInvalid, "cubeMathType is 9", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnConvolutionGetWorkspaceSize(x.get(), w.get(), nullptr, s1.a, p0.a, d1.a, false, op.a, 2, y.get(), 9, ws, e);
  });
  const bool mask[3] = {true, true, true};
  aclBoolArray* m = aclCreateBoolArray(mask, 3);
  IntArray bias_sizes({5});
  expect_phase1_error("biasSizes", kInvalid, "biasSizes is [5]", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnConvolutionBackwardGetWorkspaceSize(y.get(), x.get(), w.get(), bias_sizes.a, s1.a, p0.a, d1.a, false,
                                                    op.a, 2, m, 0, x.get(), w.get(), bad_bias.get(), ws, e);
  });
  expect_phase1_error("null gradInput", ACLNN_ERR_PARAM_NULLPTR, "gradInput", [&](uint64_t* ws, aclOpExecutor** e) {
    return aclnnConvolutionBackwardGetWorkspaceSize(y.get(), x.get(), w.get(), bias_sizes.a, s1.a, p0.a, d1.a, false,
                                                    op.a, 2, m, 0, nullptr, w.get(), bad_bias.get(), ws, e);
  });
  aclDestroyBoolArray(m);
}

}  // namespace
