// Convolutions through oneDNN (see docs/ops/matmul.md for why oneDNN and not im2col + GEMM):
//   Convolution           1-D/2-D/3-D NC[D]HW, stride, padding (symmetric, or [left, right] per dim for
//                         1-D/2-D), dilation, groups, bias; transposed (PyTorch's conv_transposeNd,
//                         outputPadding) as oneDNN's deconvolution
//   ConvolutionBackward   gradInput / gradWeight / gradBias selected by outputMask, plain and transposed
//   ConvDepthwise2d       groups = input channels
//   ConvTbc               PyTorch's conv_tbc: input (T, B, Cin), weight (K, Cin, Cout), out (T', B, Cout)
// Operands are handed to oneDNN in plain dense layouts (NCHW, OIHW / GOIHW, IOHW for transposed weights):
// a float32 operand whose view is dense in that order is used where it is; any other (float16/bfloat16,
// strided or permuted views, ConvTbc's layouts) is copied to float32 workspace, and outputs that are not
// written in place come back through workspace and are rounded once. oneDNN's scratchpad is booked too.
#include <omp.h>

#include <dnnl.hpp>
#include <memory>
#include <numeric>

#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/elementwise_op.h"
#include "ops/gemm.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kConvTypes = dtype_mask({DType::kFloat, DType::kFloat16, DType::kBFloat16});
constexpr int64_t kMaxGroups = 65535;

dnnl::engine& cpu_engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

// ---- operands ----------------------------------------------------------------------------------------

// A tensor in a logical dim order (logical dim i is tensor dim perm[i]).
struct View {
  const aclTensor* t = nullptr;
  Dims shape, strides;
};

View view_of(const aclTensor& t, const std::vector<int>& perm = {}) {
  View v;
  v.t = &t;
  for (size_t i = 0; i < t.view.size(); ++i) {
    const size_t d = perm.empty() ? i : static_cast<size_t>(perm[i]);
    v.shape.push_back(t.view[d]);
    v.strides.push_back(t.strides[d]);
  }
  return v;
}

bool dense(const View& v) {
  int64_t expected = 1;
  for (size_t i = v.shape.size(); i-- > 0;) {
    if (v.shape[i] != 1 && v.strides[i] != expected) return false;
    expected *= v.shape[i];
  }
  return true;
}

bool overlaps(const aclTensor& a, const aclTensor& b) {
  if (!a.data || !b.data || a.numel() == 0 || b.numel() == 0) return false;
  int64_t alo, ahi, blo, bhi;
  a.byte_extent(&alo, &ahi);
  b.byte_extent(&blo, &bhi);
  const auto pa = reinterpret_cast<intptr_t>(a.data), pb = reinterpret_cast<intptr_t>(b.data);
  return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

// How the body reaches one operand: the tensor itself (dense float32 in logical order) or a dense
// float32 copy in workspace.
struct Operand {
  int k = -1;  // DensePlan index; -1: absent
  bool direct = true, output = false;
  size_t scratch = 0;
  Dims shape, strides;
  DType dtype = DType::kFloat;
  bool present() const { return k >= 0; }
};

Operand add_operand(DensePlan& p, const View& v, bool output, const std::vector<const aclTensor*>& inputs) {
  Operand o;
  o.output = output;
  o.shape = v.shape;
  o.strides = v.strides;
  o.dtype = v.t->dtype;
  o.direct = v.t->dtype == DType::kFloat && dense(v);
  if (output && o.direct)
    for (const aclTensor* in : inputs)
      if (in && overlaps(*v.t, *in)) o.direct = false;
  o.k = p.strided(*v.t);
  if (!o.direct) o.scratch = p.scratch(static_cast<size_t>(v.t->numel()) * sizeof(float));
  return o;
}

// The float32 data of an input (converted into workspace first when needed).
float* load(const Operand& o, const DenseArgs& a) {
  if (o.direct) return static_cast<float*>(a.ptr(o.k));
  float* s = a.scratch<float>(o.scratch);
  copy_strided(o.shape, DType::kFloat, s, contiguous_strides(o.shape), o.dtype, a.ptr(o.k), o.strides);
  return s;
}
float* target(const Operand& o, const DenseArgs& a) {
  return o.direct ? static_cast<float*>(a.ptr(o.k)) : a.scratch<float>(o.scratch);
}
void store(const Operand& o, const DenseArgs& a) {
  if (!o.direct)
    copy_strided(o.shape, o.dtype, a.ptr(o.k), o.strides, DType::kFloat, a.scratch<float>(o.scratch),
                 contiguous_strides(o.shape));
}

// ---- geometry ------------------------------------------------------------------------------------------

struct ConvGeometry {
  int nd = 0;  // spatial dims
  Dims stride, pad_l, pad_r, dilation, out_pad;
  int64_t groups = 1;
  bool transposed = false;
  // Logical shapes: input [N, C, sp...]; weight [OC, IC/G, k...] (transposed: [IC, OC/G, k...]); out.
  Dims in, weight, out;
  int64_t in_channels() const { return in[1]; }
  int64_t out_channels() const { return transposed ? weight[1] * groups : weight[0]; }
};

std::vector<int64_t> int_values(OpBuilder& b, const aclIntArray* a, const char* name) {
  return b.int_array(a, name).values;
}

void check_len(const std::vector<int64_t>& v, const char* name, size_t n) {
  if (v.size() != n) invalid("{} has {} values, expected {} (one per spatial dim)", name, v.size(), n);
}

// Checks the attributes and the input / weight channels; fills g.pad_*, g.out (the inferred output shape).
void infer_geometry(ConvGeometry& g, const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                    const std::vector<int64_t>& dilation, const std::vector<int64_t>* out_pad, const char* input_name,
                    const char* weight_name) {
  const size_t nd = static_cast<size_t>(g.nd);
  check_len(stride, "stride", nd);
  check_len(dilation, "dilation", nd);
  const bool pairs = padding.size() == 2 * nd && nd <= 2;
  if (padding.size() != nd && !pairs)
    invalid("padding has {} values, expected {}{}", padding.size(), nd,
            nd <= 2 ? fmt::format(" or {} ([begin, end] per spatial dim)", 2 * nd) : std::string());
  g.stride = stride;
  g.dilation = dilation;
  g.pad_l.assign(nd, 0);
  g.pad_r.assign(nd, 0);
  for (size_t i = 0; i < nd; ++i) {
    if (stride[i] <= 0) invalid("stride[{}] is {}, expected > 0", i, stride[i]);
    if (dilation[i] <= 0) invalid("dilation[{}] is {}, expected > 0", i, dilation[i]);
    g.pad_l[i] = pairs ? padding[2 * i] : padding[i];
    g.pad_r[i] = pairs ? padding[2 * i + 1] : padding[i];
    if (g.pad_l[i] < 0 || g.pad_r[i] < 0) invalid("padding has a negative value ({})", std::min(g.pad_l[i], g.pad_r[i]));
  }
  g.out_pad.assign(nd, 0);
  if (g.transposed) {
    if (!out_pad) throw NullArgument("argument 'outputPadding' is null (required when transposed is true)");
    check_len(*out_pad, "outputPadding", nd);
    for (size_t i = 0; i < nd; ++i) {
      const int64_t op = (*out_pad)[i];
      if (op < 0 || (op >= stride[i] && op >= dilation[i]))
        invalid("outputPadding[{}] is {}, expected >= 0 and smaller than stride ({}) or dilation ({})", i, op,
                stride[i], dilation[i]);
      g.out_pad[i] = op;
    }
  }
  if (g.groups < 1 || g.groups > kMaxGroups) invalid("groups is {}, expected a value in [1, {}]", g.groups, kMaxGroups);
  const int64_t c = g.in[1];
  if (!g.transposed) {
    if (g.weight[0] % g.groups != 0)
      invalid("{} has {} output channels (dim 0), not divisible by groups ({})", weight_name, g.weight[0], g.groups);
    if (g.weight[1] * g.groups != c)
      invalid("{} has {} channels, expected {} ({} dim 1) * groups ({})", input_name, c, g.weight[1] * g.groups,
              weight_name, g.groups);
  } else {
    if (g.weight[0] != c)
      invalid("{} has {} channels, expected {} (dim 0 of {} for a transposed convolution)", input_name, c,
              g.weight[0], weight_name);
    if (c % g.groups != 0) invalid("{} has {} channels, not divisible by groups ({})", input_name, c, g.groups);
  }
  g.out = {g.in[0], g.out_channels()};
  for (size_t i = 0; i < nd; ++i) {
    const int64_t in = g.in[i + 2], k = g.weight[i + 2];
    const int64_t ext = g.dilation[i] * (k - 1) + 1;
    int64_t o;
    if (!g.transposed) {
      const int64_t span = in + g.pad_l[i] + g.pad_r[i] - ext;
      if (span < 0)
        invalid("{} spatial dim {} is {} ({} with padding), smaller than the dilated kernel ({})", input_name, i, in,
                in + g.pad_l[i] + g.pad_r[i], ext);
      o = span / g.stride[i] + 1;
    } else {
      o = (in - 1) * g.stride[i] - g.pad_l[i] - g.pad_r[i] + ext + g.out_pad[i];
      if (o < 0) invalid("the transposed convolution's output spatial dim {} would be {}", i, o);
    }
    g.out.push_back(o);
  }
}

// ---- oneDNN descriptors ------------------------------------------------------------------------------

using dnnl::memory;

memory::desc plain_desc(const Dims& shape) {
  const Dims strides = contiguous_strides(shape);
  return memory::desc(memory::dims(shape.begin(), shape.end()), memory::data_type::f32,
                      memory::dims(strides.begin(), strides.end()));
}

// The dense PyTorch weight ([OC, IC/G, k...], or [IC, OC/G, k...] transposed) as oneDNN's weights:
// dims [G, OC/G, IC/G, k...] (no G when groups == 1).
memory::desc weights_desc(const ConvGeometry& g) {
  const int64_t G = g.groups, OC = g.out_channels(), IC = g.in_channels();
  int64_t ks = 1;
  for (int i = 0; i < g.nd; ++i) ks *= g.weight[static_cast<size_t>(i) + 2];
  const Dims kst = contiguous_strides(Dims(g.weight.begin() + 2, g.weight.end()));
  memory::dims dims, strides;
  const int64_t o_stride = g.transposed ? ks : (IC / G) * ks;
  const int64_t i_stride = g.transposed ? (OC / G) * ks : ks;
  if (G > 1) {
    dims.push_back(G);
    strides.push_back((OC / G) * (IC / G) * ks);
  }
  dims.push_back(OC / G);
  strides.push_back(o_stride);
  dims.push_back(IC / G);
  strides.push_back(i_stride);
  for (int i = 0; i < g.nd; ++i) {
    dims.push_back(g.weight[static_cast<size_t>(i) + 2]);
    strides.push_back(kst[static_cast<size_t>(i)]);
  }
  return memory::desc(dims, memory::data_type::f32, strides);
}

struct DnnlArgs {
  memory::dims strides, dilates, pad_l, pad_r;
};

DnnlArgs dnnl_args(const ConvGeometry& g) {
  DnnlArgs a;
  for (int i = 0; i < g.nd; ++i) {
    const size_t s = static_cast<size_t>(i);
    a.strides.push_back(g.stride[s]);
    a.dilates.push_back(g.dilation[s] - 1);
    a.pad_l.push_back(g.pad_l[s]);
    // oneDNN's end padding makes its output size formula exact; for a transposed convolution the
    // output padding is an end padding taken away (possibly negative).
    a.pad_r.push_back(g.transposed ? g.pad_r[s] - g.out_pad[s] : g.pad_r[s]);
  }
  return a;
}

bool has_zero(const Dims& d) {
  for (int64_t x : d)
    if (x == 0) return true;
  return false;
}

// oneDNN rejects some transposed geometries whose output padding exceeds the end padding (a negative
// end padding of a stride or more). No input reaches those trailing output positions (they hold the bias
// alone), so the product runs on the output without them.
bool can_trim(const ConvGeometry& g) {
  if (!g.transposed) return false;
  for (int i = 0; i < g.nd; ++i)
    if (g.out_pad[static_cast<size_t>(i)] > g.pad_r[static_cast<size_t>(i)]) return true;
  return false;
}
ConvGeometry trimmed(const ConvGeometry& g) {
  ConvGeometry t = g;
  for (int i = 0; i < g.nd; ++i) {
    const size_t s = static_cast<size_t>(i);
    const int64_t cut = std::max<int64_t>(0, g.out_pad[s] - g.pad_r[s]);
    t.out[s + 2] -= cut;
    t.out_pad[s] -= cut;
  }
  return t;
}
View with_shape(View v, const Dims& shape) {
  v.shape = shape;
  return v;
}

void run_primitive(const dnnl::primitive& prim, std::unordered_map<int, memory> args) {
  set_gemm_threads();
  thread_local dnnl::stream s(cpu_engine());
  prim.execute(s, args);
  s.wait();
}

// ---- forward ---------------------------------------------------------------------------------------

// The forward primitive, on plain layouts or on oneDNN's blocked layouts behind reorders. Measured on
// this machine (docs/ops/matmul.md): blocked kernels plus reorders beat the plain (im2col + GEMM) kernel
// by about 1.3x for kernels of more than one element, and lose (the reorders cost more than they save)
// for 1x1 kernels, which stay plain.
struct ForwardPlan {
  dnnl::primitive prim;
  memory::desc src, wei, bias, dst, scratch;  // plain (the operands' dense float32 layouts)
  bool blocked = false;
  memory::desc src_b, wei_b, dst_b;  // the layouts prim runs on when blocked
  dnnl::reorder to_src, to_wei, from_dst;
  std::string impl;
};

bool blocked_impl(const char* impl) {
  const std::string s(impl);
  return s.rfind("brg", 0) == 0 || s.rfind("jit", 0) == 0;
}

// Throws dnnl::error when oneDNN has no primitive for g.
ForwardPlan make_forward(const ConvGeometry& g, bool with_bias) {
  ForwardPlan fp;
  fp.src = plain_desc(g.in);
  fp.wei = weights_desc(g);
  fp.dst = plain_desc(g.out);
  fp.bias = with_bias ? plain_desc({g.out_channels()}) : memory::desc();
  const DnnlArgs a = dnnl_args(g);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const auto pk = dnnl::prop_kind::forward_inference;
  auto create = [&](const memory::desc& src, const memory::desc& wei, const memory::desc& dst) {
    if (!g.transposed) {
      dnnl::convolution_forward::primitive_desc pd(
          dnnl::convolution_forward::desc(pk, dnnl::algorithm::convolution_direct, src, wei, fp.bias, dst, a.strides,
                                          a.dilates, a.pad_l, a.pad_r),
          attr, cpu_engine());
      fp.prim = dnnl::convolution_forward(pd);
      fp.scratch = pd.scratchpad_desc();
      fp.impl = pd.impl_info_str();
      fp.src_b = pd.src_desc();
      fp.wei_b = pd.weights_desc();
      fp.dst_b = pd.dst_desc();
    } else {
      dnnl::deconvolution_forward::primitive_desc pd(
          dnnl::deconvolution_forward::desc(pk, dnnl::algorithm::deconvolution_direct, src, wei, fp.bias, dst,
                                            a.strides, a.dilates, a.pad_l, a.pad_r),
          attr, cpu_engine());
      fp.prim = dnnl::deconvolution_forward(pd);
      fp.scratch = pd.scratchpad_desc();
      fp.impl = pd.impl_info_str();
      fp.src_b = pd.src_desc();
      fp.wei_b = pd.weights_desc();
      fp.dst_b = pd.dst_desc();
    }
  };
  int64_t kernel = 1;
  for (size_t i = 2; i < g.weight.size(); ++i) kernel *= g.weight[i];
  if (kernel > 1) {
    auto any = [](const memory::desc& md) {
      return memory::desc(md.dims(), memory::data_type::f32, memory::format_tag::any);
    };
    try {
      create(any(fp.src), any(fp.wei), any(fp.dst));
      if (blocked_impl(fp.impl.c_str())) {
        fp.blocked = true;
        auto reorder = [&](const memory::desc& from, const memory::desc& to) {
          dnnl::reorder::primitive_desc pd(cpu_engine(), from, cpu_engine(), to, attr);
          if (pd.scratchpad_desc().get_size() > fp.scratch.get_size()) fp.scratch = pd.scratchpad_desc();
          return dnnl::reorder(pd);
        };
        const memory::desc conv_scratch = fp.scratch;
        fp.to_src = reorder(fp.src, fp.src_b);
        fp.to_wei = reorder(fp.wei, fp.wei_b);
        fp.from_dst = reorder(fp.dst_b, fp.dst);
        if (conv_scratch.get_size() >= fp.scratch.get_size()) fp.scratch = conv_scratch;
        fp.impl += ".blocked";
        return fp;
      }
    } catch (const dnnl::error&) {
    }
  }
  create(fp.src, fp.wei, fp.dst);
  return fp;
}

// Writes bias[c] (or 0) to every element of a dense [N, C, spatial...] buffer.
void fill_bias(float* dst, const Dims& shape, const float* bias) {
  const int64_t n = shape[0], c = shape[1];
  const int64_t sp = std::accumulate(shape.begin() + 2, shape.end(), int64_t{1}, std::multiplies<>());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < c; ++j) std::fill_n(dst + (i * c + j) * sp, sp, bias ? bias[j] : 0.0f);
}

void plan_forward(OpBuilder& b, const ConvGeometry& g, const View& input, const View& weight, const View* bias,
                  const View& output, const std::string& name) {
  if (output.t->numel() == 0) return;
  const bool product = !has_zero(g.in) && !has_zero(g.weight);
  auto fp = std::make_shared<ForwardPlan>();
  ConvGeometry gd = g;  // the geometry oneDNN runs
  bool trim = false;
  if (product) {
    try {
      *fp = make_forward(gd, bias != nullptr);
    } catch (const dnnl::error& e) {
      if (!can_trim(g))
        unsupported("oneDNN has no {} for these arguments ({})", g.transposed ? "deconvolution" : "convolution",
                    e.what());
      gd = trimmed(g);
      trim = true;
      try {
        *fp = make_forward(gd, bias != nullptr);
      } catch (const dnnl::error& e2) {
        unsupported("oneDNN has no deconvolution for these arguments ({})", e2.what());
      }
    }
  }
  DensePlan p(b);
  const std::vector<const aclTensor*> ins = {input.t, weight.t, bias ? bias->t : nullptr};
  const Operand in = add_operand(p, input, false, ins);
  const Operand w = add_operand(p, weight, false, ins);
  const Operand bi = bias ? add_operand(p, *bias, false, ins) : Operand{};
  // With a trimmed product, the whole output first gets the bias, then the product's part.
  const Operand full = !product || trim ? add_operand(p, output, true, ins) : Operand{};
  const Operand out = product ? add_operand(p, with_shape(output, gd.out), true, ins) : Operand{};
  const size_t scratch = fp->scratch.get_size() ? p.scratch(fp->scratch.get_size()) : 0;
  const size_t src_b = fp->blocked ? p.scratch(fp->src_b.get_size()) : 0;
  const size_t wei_b = fp->blocked ? p.scratch(fp->wei_b.get_size()) : 0;
  const size_t dst_b = fp->blocked ? p.scratch(fp->dst_b.get_size()) : 0;
  const Dims out_shape = g.out;
  p.finish(name + "." + (product ? fp->impl : std::string("fill")) + (trim ? ".trimmed" : ""),
           [=](const DenseArgs& args) {
             const float* bv = bi.present() ? load(bi, args) : nullptr;
             if (full.present()) {
               fill_bias(target(full, args), out_shape, bv);
               store(full, args);
             }
             if (!product) return;
             dnnl::engine& eng = cpu_engine();
             memory src(fp->src, eng, load(in, args)), wei(fp->wei, eng, load(w, args));
             memory dst(fp->dst, eng, target(out, args)), pad(fp->scratch, eng, args.scratch(scratch));
             memory conv_src = src, conv_wei = wei, conv_dst = dst;
             if (fp->blocked) {
               conv_src = memory(fp->src_b, eng, args.scratch(src_b));
               conv_wei = memory(fp->wei_b, eng, args.scratch(wei_b));
               conv_dst = memory(fp->dst_b, eng, args.scratch(dst_b));
               run_primitive(fp->to_src, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, conv_src}, {DNNL_ARG_SCRATCHPAD, pad}});
               run_primitive(fp->to_wei, {{DNNL_ARG_FROM, wei}, {DNNL_ARG_TO, conv_wei}, {DNNL_ARG_SCRATCHPAD, pad}});
             }
             std::unordered_map<int, memory> m = {{DNNL_ARG_SRC, conv_src},
                                                  {DNNL_ARG_WEIGHTS, conv_wei},
                                                  {DNNL_ARG_DST, conv_dst},
                                                  {DNNL_ARG_SCRATCHPAD, pad}};
             if (bv) m.emplace(DNNL_ARG_BIAS, memory(fp->bias, eng, const_cast<float*>(bv)));
             run_primitive(fp->prim, std::move(m));
             if (fp->blocked)
               run_primitive(fp->from_dst, {{DNNL_ARG_FROM, conv_dst}, {DNNL_ARG_TO, dst}, {DNNL_ARG_SCRATCHPAD, pad}});
             store(out, args);
           });
}

void check_conv_dtypes(OpBuilder& b, std::initializer_list<std::pair<const char*, const aclTensor*>> ts) {
  for (const auto& [name, t] : ts)
    if (t) check_dtype_in(b.op(), name, t->dtype, kConvTypes);
}

void check_conv_rank(const aclTensor& t, const char* name, int64_t rank) {
  if (rank < 3 || rank > 5) invalid("{} has {} dims ({}), expected 3 to 5 (N, C, spatial dims)", name, t.dim(), t.describe());
  if (t.dim() != rank) invalid("{} has {} dims ({}), expected {}", name, t.dim(), t.describe(), rank);
}

void check_bias(const aclTensor* bias, const char* name, int64_t channels) {
  if (!bias) return;
  if (bias->dim() != 1 || bias->view[0] != channels)
    invalid("{} has shape {}, expected [{}] (one value per output channel)", name, dims_str(bias->view), channels);
}

void plan_convolution(OpBuilder& b, const aclTensor* input_arg, const aclTensor* weight_arg, const aclTensor* bias_arg,
                      const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                      bool transposed, const aclIntArray* output_padding, int64_t groups, aclTensor* output_arg,
                      int8_t cube) {
  const aclTensor& input = b.input(input_arg, "input");
  const aclTensor& weight = b.input(weight_arg, "weight");
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "bias") : nullptr;
  const std::vector<int64_t> st = int_values(b, stride, "stride");
  const std::vector<int64_t> pad = int_values(b, padding, "padding");
  const std::vector<int64_t> dil = int_values(b, dilation, "dilation");
  std::vector<int64_t> op;
  if (transposed) op = int_values(b, output_padding, "outputPadding");
  const aclTensor& output = b.output(output_arg, "output");
  check_conv_dtypes(b, {{"input", &input}, {"weight", &weight}, {"bias", bias}, {"output", &output}});
  check_conv_rank(input, "input", input.dim());
  check_conv_rank(weight, "weight", input.dim());
  check_conv_rank(output, "output", input.dim());
  check_cube_math_type(cube);
  ConvGeometry g;
  g.nd = static_cast<int>(input.dim() - 2);
  g.transposed = transposed;
  g.groups = groups;
  g.in = input.view;
  g.weight = weight.view;
  infer_geometry(g, st, pad, dil, transposed ? &op : nullptr, "input", "weight");
  check_bias(bias, "bias", g.out_channels());
  check_shape_equals(output, "output", g.out, "the convolution's output shape");
  const View bv = bias ? view_of(*bias) : View{};
  plan_forward(b, g, view_of(input), view_of(weight), bias ? &bv : nullptr, view_of(output),
               transposed ? "conv_transpose" : "conv");
}

void plan_depthwise(OpBuilder& b, const aclTensor* self_arg, const aclTensor* weight_arg, const aclIntArray* kernel,
                    const aclTensor* bias_arg, const aclIntArray* stride, const aclIntArray* padding,
                    const aclIntArray* dilation, aclTensor* out_arg, int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& weight = b.input(weight_arg, "weight");
  const std::vector<int64_t> ks = int_values(b, kernel, "kernelSize");
  const aclTensor* bias = bias_arg ? &b.input(bias_arg, "bias") : nullptr;
  const std::vector<int64_t> st = int_values(b, stride, "stride");
  const std::vector<int64_t> pad = int_values(b, padding, "padding");
  const std::vector<int64_t> dil = int_values(b, dilation, "dilation");
  const aclTensor& out = b.output(out_arg, "out");
  check_conv_dtypes(b, {{"self", &self}, {"weight", &weight}, {"bias", bias}, {"out", &out}});
  check_conv_rank(self, "self", 4);
  check_conv_rank(weight, "weight", 4);
  check_conv_rank(out, "out", 4);
  check_cube_math_type(cube);
  if (ks.size() != 2 || ks[0] != weight.view[2] || ks[1] != weight.view[3])
    invalid("kernelSize is {}, expected weight's kernel dims [{}, {}]", dims_str(ks), weight.view[2], weight.view[3]);
  if (weight.view[1] != 1) invalid("weight has shape {}, expected dim 1 to be 1 (depthwise)", dims_str(weight.view));
  const int64_t c = self.view[1];
  if (c == 0 || weight.view[0] % c != 0)
    invalid("weight has {} output channels, expected a multiple of self's {} channels", weight.view[0], c);
  ConvGeometry g;
  g.nd = 2;
  g.groups = c;
  g.in = self.view;
  g.weight = weight.view;
  infer_geometry(g, st, pad, dil, nullptr, "self", "weight");
  check_bias(bias, "bias", g.out_channels());
  check_shape_equals(out, "out", g.out, "the convolution's output shape");
  const View bv = bias ? view_of(*bias) : View{};
  plan_forward(b, g, view_of(self), view_of(weight), bias ? &bv : nullptr, view_of(out), "conv_depthwise2d");
}

void plan_conv_tbc(OpBuilder& b, const aclTensor* self_arg, const aclTensor* weight_arg, const aclTensor* bias_arg,
                   int64_t pad, aclTensor* out_arg, int8_t cube) {
  const aclTensor& self = b.input(self_arg, "self");
  const aclTensor& weight = b.input(weight_arg, "weight");
  const aclTensor& bias = b.input(bias_arg, "bias");
  const aclTensor& out = b.output(out_arg, "out");
  check_conv_dtypes(b, {{"self", &self}, {"weight", &weight}, {"bias", &bias}, {"out", &out}});
  check_conv_rank(self, "self", 3);
  check_conv_rank(weight, "weight", 3);
  check_conv_rank(out, "out", 3);
  check_cube_math_type(cube);
  if (weight.view[1] != self.view[2])
    invalid("weight has shape {} (K, Cin, Cout), expected Cin = {} (self's channels, dim 2 of (T, B, C))",
            dims_str(weight.view), self.view[2]);
  if (pad < 0) invalid("pad is {}, expected >= 0", pad);
  const std::vector<int> tbc = {1, 2, 0};  // (T, B, C) -> (B, C, T)
  const View in = view_of(self, tbc), w = view_of(weight, {2, 1, 0}), o = view_of(out, tbc);
  ConvGeometry g;
  g.nd = 1;
  g.in = in.shape;
  g.weight = w.shape;
  infer_geometry(g, {1}, {pad}, {1}, nullptr, "self", "weight");
  check_bias(&bias, "bias", g.out_channels());
  const Dims expected = {g.out[2], g.out[0], g.out[1]};
  check_shape_equals(out, "out", expected, "conv_tbc's output shape (T', B, Cout)");
  const View bv = view_of(bias);
  plan_forward(b, g, in, w, &bv, o, "conv_tbc");
}

// ---- backward --------------------------------------------------------------------------------------

struct BackwardPlan {
  dnnl::primitive data, weights;
  bool has_data = false, has_weights = false;
  memory::desc src, wei, dst, bias, scratch;
  std::string impl;
};

// Throws dnnl::error when oneDNN has no primitive for g.
BackwardPlan make_backward(const ConvGeometry& g, bool data, bool weights, bool bias) {
  BackwardPlan bp;
  bp.src = plain_desc(g.in);
  bp.wei = weights_desc(g);
  bp.dst = plain_desc(g.out);
  bp.bias = plain_desc({g.out_channels()});
  const DnnlArgs a = dnnl_args(g);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  auto keep = [&](const memory::desc& md, const char* impl) {
    if (md.get_size() > bp.scratch.get_size()) bp.scratch = md;
    bp.impl += (bp.impl.empty() ? "" : "+") + std::string(impl);
  };
  const memory::desc bias_md = bias ? bp.bias : memory::desc();
  const auto train = dnnl::prop_kind::forward_training;
  if (!g.transposed) {
    const auto alg = dnnl::algorithm::convolution_direct;
    dnnl::convolution_forward::primitive_desc hint(
        dnnl::convolution_forward::desc(train, alg, bp.src, bp.wei, bias_md, bp.dst, a.strides, a.dilates, a.pad_l,
                                        a.pad_r),
        cpu_engine());
    if (data) {
      dnnl::convolution_backward_data::primitive_desc pd(
          dnnl::convolution_backward_data::desc(alg, bp.src, bp.wei, bp.dst, a.strides, a.dilates, a.pad_l, a.pad_r),
          attr, cpu_engine(), hint);
      bp.data = dnnl::convolution_backward_data(pd);
      bp.has_data = true;
      keep(pd.scratchpad_desc(), pd.impl_info_str());
    }
    if (weights) {
      dnnl::convolution_backward_weights::primitive_desc pd(
          dnnl::convolution_backward_weights::desc(alg, bp.src, bp.wei, bias_md, bp.dst, a.strides, a.dilates,
                                                   a.pad_l, a.pad_r),
          attr, cpu_engine(), hint);
      bp.weights = dnnl::convolution_backward_weights(pd);
      bp.has_weights = true;
      keep(pd.scratchpad_desc(), pd.impl_info_str());
    }
  } else {
    const auto alg = dnnl::algorithm::deconvolution_direct;
    dnnl::deconvolution_forward::primitive_desc hint(
        dnnl::deconvolution_forward::desc(train, alg, bp.src, bp.wei, bias_md, bp.dst, a.strides, a.dilates, a.pad_l,
                                          a.pad_r),
        cpu_engine());
    if (data) {
      dnnl::deconvolution_backward_data::primitive_desc pd(
          dnnl::deconvolution_backward_data::desc(alg, bp.src, bp.wei, bp.dst, a.strides, a.dilates, a.pad_l,
                                                  a.pad_r),
          attr, cpu_engine(), hint);
      bp.data = dnnl::deconvolution_backward_data(pd);
      bp.has_data = true;
      keep(pd.scratchpad_desc(), pd.impl_info_str());
    }
    if (weights) {
      dnnl::deconvolution_backward_weights::primitive_desc pd(
          dnnl::deconvolution_backward_weights::desc(alg, bp.src, bp.wei, bias_md, bp.dst, a.strides, a.dilates,
                                                     a.pad_l, a.pad_r),
          attr, cpu_engine(), hint);
      bp.weights = dnnl::deconvolution_backward_weights(pd);
      bp.has_weights = true;
      keep(pd.scratchpad_desc(), pd.impl_info_str());
    }
  }
  return bp;
}

void plan_backward(OpBuilder& b, const aclTensor* grad_output_arg, const aclTensor* input_arg,
                   const aclTensor* weight_arg, const aclIntArray* bias_sizes, const aclIntArray* stride,
                   const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
                   const aclIntArray* output_padding, int groups, const aclBoolArray* output_mask, int8_t cube,
                   aclTensor* grad_input_arg, aclTensor* grad_weight_arg, aclTensor* grad_bias_arg) {
  const aclTensor& grad_output = b.input(grad_output_arg, "gradOutput");
  const aclTensor& input = b.input(input_arg, "input");
  const aclTensor& weight = b.input(weight_arg, "weight");
  const std::vector<int64_t> st = int_values(b, stride, "stride");
  const std::vector<int64_t> pad = int_values(b, padding, "padding");
  const std::vector<int64_t> dil = int_values(b, dilation, "dilation");
  std::vector<int64_t> op;
  if (transposed) op = int_values(b, output_padding, "outputPadding");
  const std::vector<bool> mask = b.bool_array(output_mask, "outputMask").values;
  if (mask.size() != 3) invalid("outputMask has {} values, expected 3 (gradInput, gradWeight, gradBias)", mask.size());
  const aclTensor* gi = mask[0] ? &b.output(grad_input_arg, "gradInput") : nullptr;
  const aclTensor* gw = mask[1] ? &b.output(grad_weight_arg, "gradWeight") : nullptr;
  const aclTensor* gb = mask[2] ? &b.output(grad_bias_arg, "gradBias") : nullptr;
  check_conv_dtypes(b, {{"gradOutput", &grad_output}, {"input", &input}, {"weight", &weight}, {"gradInput", gi},
                        {"gradWeight", gw}, {"gradBias", gb}});
  check_conv_rank(input, "input", input.dim());
  check_conv_rank(weight, "weight", input.dim());
  check_conv_rank(grad_output, "gradOutput", input.dim());
  check_cube_math_type(cube);
  ConvGeometry g;
  g.nd = static_cast<int>(input.dim() - 2);
  g.transposed = transposed;
  g.groups = groups;
  g.in = input.view;
  g.weight = weight.view;
  infer_geometry(g, st, pad, dil, transposed ? &op : nullptr, "input", "weight");
  check_shape_equals(grad_output, "gradOutput", g.out, "the convolution's output shape");
  if (gi) check_shape_equals(*gi, "gradInput", input.view, "input's shape");
  if (gw) check_shape_equals(*gw, "gradWeight", weight.view, "weight's shape");
  if (gb) {
    const aclIntArray& sizes = b.int_array(bias_sizes, "biasSizes");
    if (sizes.values.size() != 1 || sizes.values[0] != g.out_channels())
      invalid("biasSizes is {}, expected [{}] (the output channels)", dims_str(sizes.values), g.out_channels());
    check_shape_equals(*gb, "gradBias", {g.out_channels()}, "[output channels]");
  }
  if (!gi && !gw && !gb) return;
  const bool product = !has_zero(g.in) && !has_zero(g.weight) && !has_zero(g.out);
  const bool want_data = product && gi && gi->numel() > 0, want_weights = product && gw && gw->numel() > 0;
  auto bp = std::make_shared<BackwardPlan>();
  ConvGeometry gd = g;  // the geometry oneDNN runs
  bool trim = false;
  if (want_data || want_weights) {
    auto make = [&] { *bp = make_backward(gd, want_data, want_weights, gb != nullptr && !trim); };
    try {
      make();
    } catch (const dnnl::error& e) {
      if (!can_trim(g))
        unsupported("oneDNN has no backward {} for these arguments ({})", transposed ? "deconvolution" : "convolution",
                    e.what());
      gd = trimmed(g);
      trim = true;
      try {
        make();
      } catch (const dnnl::error& e2) {
        unsupported("oneDNN has no backward deconvolution for these arguments ({})", e2.what());
      }
    }
  }
  DensePlan p(b);
  const std::vector<const aclTensor*> ins = {&grad_output, &input, &weight};
  const View gy_view = view_of(grad_output);
  const Operand dy = add_operand(p, gy_view, false, ins);                                   // all of gradOutput
  const Operand dyt = trim ? add_operand(p, with_shape(gy_view, gd.out), false, ins) : dy;  // the product's part
  const Operand x = add_operand(p, view_of(input), false, ins);
  const Operand w = add_operand(p, view_of(weight), false, ins);
  const Operand dx = gi && gi->numel() ? add_operand(p, view_of(*gi), true, ins) : Operand{};
  const Operand dw = gw && gw->numel() ? add_operand(p, view_of(*gw), true, ins) : Operand{};
  const Operand db = gb && gb->numel() ? add_operand(p, view_of(*gb), true, ins) : Operand{};
  const size_t scratch = bp->scratch.get_size() ? p.scratch(bp->scratch.get_size()) : 0;
  const Dims out_shape = g.out;
  // gradBias comes with gradWeight from oneDNN; alone (or without a product, or trimmed) it is summed here.
  const bool bias_by_dnnl = bp->has_weights && db.present() && !trim;
  const std::string impl = bp->impl.empty() ? "fill" : bp->impl;
  p.finish((transposed ? "conv_transpose_backward." : "conv_backward.") + impl + (trim ? ".trimmed" : ""),
           [=](const DenseArgs& args) {
             dnnl::engine& eng = cpu_engine();
             float* gy = bp->has_data || bp->has_weights ? load(dyt, args) : nullptr;
             const float* gy_all = db.present() && !bias_by_dnnl ? (trim ? load(dy, args) : gy ? gy : load(dy, args))
                                                                 : nullptr;
             if (dx.present()) {
               float* dst = target(dx, args);
               if (bp->has_data) {
                 run_primitive(bp->data, {{DNNL_ARG_DIFF_DST, memory(bp->dst, eng, gy)},
                                          {DNNL_ARG_WEIGHTS, memory(bp->wei, eng, load(w, args))},
                                          {DNNL_ARG_DIFF_SRC, memory(bp->src, eng, dst)},
                                          {DNNL_ARG_SCRATCHPAD, memory(bp->scratch, eng, args.scratch(scratch))}});
               } else {
                 std::fill_n(dst, static_cast<size_t>(std::accumulate(dx.shape.begin(), dx.shape.end(), int64_t{1},
                                                                      std::multiplies<>())),
                             0.0f);
               }
               store(dx, args);
             }
             float* bias_dst = db.present() ? target(db, args) : nullptr;
             if (dw.present()) {
               float* dst = target(dw, args);
               if (bp->has_weights) {
                 std::unordered_map<int, memory> m = {
                     {DNNL_ARG_DIFF_DST, memory(bp->dst, eng, gy)},
                     {DNNL_ARG_SRC, memory(bp->src, eng, load(x, args))},
                     {DNNL_ARG_DIFF_WEIGHTS, memory(bp->wei, eng, dst)},
                     {DNNL_ARG_SCRATCHPAD, memory(bp->scratch, eng, args.scratch(scratch))}};
                 if (bias_by_dnnl) m.emplace(DNNL_ARG_DIFF_BIAS, memory(bp->bias, eng, bias_dst));
                 run_primitive(bp->weights, std::move(m));
               } else {
                 std::fill_n(dst, static_cast<size_t>(std::accumulate(dw.shape.begin(), dw.shape.end(), int64_t{1},
                                                                      std::multiplies<>())),
                             0.0f);
               }
               store(dw, args);
             }
             if (db.present()) {
               if (!bias_by_dnnl) {  // gradBias[c] = sum over N and the spatial dims of gradOutput[:, c]
                 const int64_t n = out_shape[0], c = out_shape[1];
                 const int64_t sp =
                     std::accumulate(out_shape.begin() + 2, out_shape.end(), int64_t{1}, std::multiplies<>());
                 parallel_for(c, 1, [&](int64_t lo, int64_t hi, int) {
                   for (int64_t j = lo; j < hi; ++j) {
                     double sum = 0;
                     for (int64_t i = 0; i < n; ++i) {
                       const float* row = gy_all + (i * c + j) * sp;
                       for (int64_t q = 0; q < sp; ++q) sum += row[q];
                     }
                     bias_dst[j] = static_cast<float>(sum);
                   }
                 });
               }
               store(db, args);
             }
           });
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" {

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, const int64_t groups,
                                             aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Convolution, "aclnnConvolutionGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_convolution(b, input, weight, bias, stride, padding, dilation, transposed,
                                                   outputPadding, groups, output, cubeMathType);
                          });
}

aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                 const aclIntArray* kernelSize, const aclTensor* bias,
                                                 const aclIntArray* stride, const aclIntArray* padding,
                                                 const aclIntArray* dilation, aclTensor* out, int8_t cubeMathType,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ConvDepthwise2d, "aclnnConvDepthwise2dGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) {
                            pacl::plan_depthwise(b, self, weight, kernelSize, bias, stride, padding, dilation, out,
                                                 cubeMathType);
                          });
}

aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor* self, const aclTensor* weight, const aclTensor* bias,
                                         const int64_t pad, aclTensor* output, int8_t cubeMathType,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ConvTbc, "aclnnConvTbcGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_conv_tbc(b, self, weight, bias, pad, output, cubeMathType); });
}

aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclIntArray* biasSizes,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
    const aclIntArray* outputPadding, int groups, const aclBoolArray* outputMask, int8_t cubeMathType,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ConvolutionBackward, "aclnnConvolutionBackwardGetWorkspaceSize", workspaceSize,
                          executor, [&](OpBuilder& b) {
                            pacl::plan_backward(b, gradOutput, input, weight, biasSizes, stride, padding, dilation,
                                                transposed, outputPadding, groups, outputMask, cubeMathType,
                                                gradInput, gradWeight, gradBias);
                          });
}

}  // extern "C"
