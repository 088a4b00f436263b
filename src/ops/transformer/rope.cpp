// Rotary position embeddings: ApplyRotaryPosEmb(V2), RotaryPositionEmbedding(+Grad), RopeWithSinCosCache.
//
// Every rotary mode is one signed gather along the last dim D:
//   y[j] = x[p[j]] * cos[j] + sign[j] * x[r[j]] * sin[j]
// with p the identity except for interleave-half (x[::2] then x[1::2]) and r/sign the rotation:
//   half:            rotate = cat(-x2, x1)              (x1, x2 = the halves of x)
//   interleave:      rotate[2i] = -x[2i+1], rotate[2i+1] = x[2i]
//   quarter:         rotate = cat(-x2, x1, -x4, x3)     (the quarters of x)
//   interleave-half: p = cat(x[::2], x[1::2]), rotate = cat(-x[1::2], x[::2])
// The gradient is the transpose: dx[p[j]] += dy[j]*cos[j], dx[r[j]] += sign[j]*dy[j]*sin[j],
// dcos[j] = sum dy[j]*x[p[j]], dsin[j] = sum dy[j]*sign[j]*x[r[j]] over the broadcast dims.
// cos and sin broadcast over the leading dims of x (a dim of size 1 repeats). Everything computes in
// float32 (float16/bfloat16 are widened, the result rounded once); dcos/dsin accumulate in double.
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/registry.h"
#include "ops/transformer/common.h"

namespace pacl {
namespace {

using tf::check_dims;
using tf::check_same_dtype;

enum class RotaryMode { kHalf = 0, kInterleave = 1, kQuarter = 2, kInterleaveHalf = 3 };

const char* mode_name(RotaryMode m) {
  switch (m) {
    case RotaryMode::kHalf: return "half";
    case RotaryMode::kInterleave: return "interleave";
    case RotaryMode::kQuarter: return "quarter";
    case RotaryMode::kInterleaveHalf: return "interleave-half";
  }
  return "?";
}

struct RotaryMap {
  std::vector<int32_t> p, r;
  std::vector<float> sign;
};

RotaryMap rotary_map(RotaryMode m, int64_t d) {
  RotaryMap map;
  map.p.resize(static_cast<size_t>(d));
  map.r.resize(static_cast<size_t>(d));
  map.sign.resize(static_cast<size_t>(d));
  const int64_t h = d / 2, q = d / 4;
  for (int64_t j = 0; j < d; ++j) {
    int64_t p = j, r = 0;
    float s = 1;
    switch (m) {
      case RotaryMode::kHalf:
        r = j < h ? j + h : j - h;
        s = j < h ? -1.0f : 1.0f;
        break;
      case RotaryMode::kInterleave:
        r = j % 2 == 0 ? j + 1 : j - 1;
        s = j % 2 == 0 ? -1.0f : 1.0f;
        break;
      case RotaryMode::kQuarter: {
        const int64_t blk = j / q, in = j % q;
        r = (blk % 2 == 0 ? blk + 1 : blk - 1) * q + in;
        s = blk % 2 == 0 ? -1.0f : 1.0f;
        break;
      }
      case RotaryMode::kInterleaveHalf:
        p = j < h ? 2 * j : 2 * (j - h) + 1;
        r = j < h ? 2 * j + 1 : 2 * (j - h);
        s = j < h ? -1.0f : 1.0f;
        break;
    }
    map.p[static_cast<size_t>(j)] = static_cast<int32_t>(p);
    map.r[static_cast<size_t>(j)] = static_cast<int32_t>(r);
    map.sign[static_cast<size_t>(j)] = s;
  }
  return map;
}

void check_rotary_dim(const OpInfo& op, RotaryMode m, int64_t d, const char* name, bool tiling) {
  const int64_t mult = m == RotaryMode::kQuarter ? 4 : 2;
  if (d % mult == 0) return;
  if (tiling)
    tf::tiling_error("aclnn{}: the last dim of {} is {}, expected a multiple of {} for rotary mode {}", op.name, name, d,
                     mult, mode_name(m));
  invalid("aclnn{}: the last dim of {} is {}, expected a multiple of {} for rotary mode {}", op.name, name, d, mult,
            mode_name(m));
}

// The rows of a [rows..., D] tensor and, for a broadcast cos of the same rank, the element offset
// of cos's row for each row of x.
struct RowGeometry {
  Dims xshape;      // all dims but the last
  Dims cos_stride;  // element strides of the dense cos over those dims, 0 where cos broadcasts
  int64_t rows = 0, d = 0;

  int64_t cos_row(int64_t row) const {
    int64_t off = 0;
    for (size_t k = xshape.size(); k-- > 0;) {
      const int64_t i = row % xshape[k];
      row /= xshape[k];
      off += i * cos_stride[k];
    }
    return off;
  }
};

RowGeometry row_geometry(const Dims& x, const Dims& c) {
  RowGeometry g;
  g.d = x.back();
  g.rows = 1;
  int64_t stride = g.d;
  g.xshape.resize(x.size() - 1);
  g.cos_stride.resize(x.size() - 1);
  for (size_t k = x.size() - 1; k-- > 0;) {
    g.xshape[k] = x[k];
    g.cos_stride[k] = c[k] == 1 ? 0 : stride;
    stride *= c[k];
    g.rows *= x[k];
  }
  return g;
}

// y = x*cos + rotate(x)*sin row by row (y may be x).
void rotate_rows(const RowGeometry& g, const RotaryMap& m, const float* x, const float* c, const float* s, float* y) {
  const int64_t d = g.d;
  parallel_for(g.rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(d, 1)), [&](int64_t from, int64_t to, int) {
    std::vector<float> tmp(static_cast<size_t>(d));
    for (int64_t row = from; row < to; ++row) {
      const float* xr = x + row * d;
      const int64_t co = g.cos_row(row);
      const float* cr = c + co;
      const float* sr = s + co;
      for (int64_t j = 0; j < d; ++j) {
        const size_t u = static_cast<size_t>(j);
        tmp[u] = xr[m.p[u]] * cr[j] + m.sign[u] * xr[m.r[u]] * sr[j];
      }
      std::memcpy(y + row * d, tmp.data(), static_cast<size_t>(d) * sizeof(float));
    }
  });
}

// cos (and sin) broadcast to x: same rank, each dim 1 or x's, the last dim equal.
void check_cos_broadcast(const aclTensor& x, const char* xname, const aclTensor& c, const char* cname) {
  check_dims(c, cname, x.dim());
  for (size_t k = 0; k + 1 < x.view.size(); ++k)
    if (c.view[k] != 1 && c.view[k] != x.view[k])
      tf::tiling_error("{} has shape {}; each of its leading dims must be 1 or the size of that dim of {} {}", cname,
                       dims_str(c.view), xname, dims_str(x.view));
  if (c.view.back() != x.view.back())
    tf::tiling_error("{} has shape {}, its last dim must equal the last dim of {} {}", cname, dims_str(c.view), xname,
                     dims_str(x.view));
}

// ---- ApplyRotaryPosEmb(V2): query and key in place ------------------------------------------------

void plan_apply_rotary(OpBuilder& b, const aclTensor* q_arg, const aclTensor* k_arg, const aclTensor* cos_arg,
                       const aclTensor* sin_arg, int64_t layout, RotaryMode mode, bool v2) {
  const aclTensor& q = b.inout(q_arg, "queryRef");
  const aclTensor& k = b.inout(k_arg, "keyRef");
  const aclTensor& c = b.input(cos_arg, "cos");
  const aclTensor& s = b.input(sin_arg, "sin");
  check_dtype_in(b.op(), "queryRef", q.dtype, tf::kF32F16BF16);
  check_same_dtype(k, "keyRef", q, "queryRef");
  check_same_dtype(c, "cos", q, "queryRef");
  check_same_dtype(s, "sin", q, "queryRef");
  if (v2 ? (layout < 1 || layout > 3) : layout != 1)
    invalid("layout is {}, expected {}", layout, v2 ? "1 (BSND), 2 (SBND) or 3 (BNSD)" : "1 (BSND)");
  for (auto [t, name] : {std::pair{&q, "queryRef"}, {&k, "keyRef"}, {&c, "cos"}, {&s, "sin"}}) {
    check_dims(*t, name, 4);
    tf::check_not_empty(*t, name);
  }
  const int n_axis = layout == 3 ? 1 : 2;  // BSND, SBND: N is dim 2; BNSD: dim 1
  const int b_axis = layout == 2 ? 1 : 0;
  const int s_axis = layout == 1 ? 1 : layout == 2 ? 0 : 2;
  Dims kexp = q.view;
  kexp[static_cast<size_t>(n_axis)] = k.view[static_cast<size_t>(n_axis)];
  if (k.view != kexp)
    invalid("keyRef has shape {}, expected the shape of queryRef {} except in the N dim (dim {})", dims_str(k.view),
            dims_str(q.view), n_axis);
  if (c.view != s.view) invalid("sin has shape {}, expected the shape of cos {}", dims_str(s.view), dims_str(c.view));
  const auto cv = [&](int a) { return c.view[static_cast<size_t>(a)]; };
  const auto qv = [&](int a) { return q.view[static_cast<size_t>(a)]; };
  if (cv(n_axis) != 1 || cv(s_axis) != qv(s_axis) || cv(3) != qv(3) || (cv(b_axis) != qv(b_axis) && cv(b_axis) != 1))
    invalid("cos has shape {}; for queryRef {} in layout {} expected B (or 1), S, N = 1 and D of queryRef",
            dims_str(c.view), dims_str(q.view), layout);
  check_rotary_dim(b.op(), mode, q.view[3], "queryRef", false);
  DensePlan p(b);
  const int ic = p.input(c, DType::kFloat), is = p.input(s, DType::kFloat);
  const int iq = p.output(q, DType::kFloat, Access::kReadWrite), ik = p.output(k, DType::kFloat, Access::kReadWrite);
  const RowGeometry gq = row_geometry(q.view, c.view), gk = row_geometry(k.view, c.view);
  const RotaryMap map = rotary_map(mode, q.view[3]);
  p.finish(std::string("rope.apply.") + mode_name(mode), [=](const DenseArgs& a) {
    rotate_rows(gq, map, a.out<float>(iq), a.in<float>(ic), a.in<float>(is), a.out<float>(iq));
    rotate_rows(gk, map, a.out<float>(ik), a.in<float>(ic), a.in<float>(is), a.out<float>(ik));
  });
}

RotaryMode parse_rotary_mode(const char* s) {
  if (!s) throw NullArgument("rotaryMode is null");
  const std::string m(s);
  if (m == "half") return RotaryMode::kHalf;
  if (m == "interleave") return RotaryMode::kInterleave;
  if (m == "quarter") return RotaryMode::kQuarter;
  invalid("rotaryMode is \"{}\", expected \"half\", \"interleave\" or \"quarter\"", m);
}

// ---- RotaryPositionEmbedding(+Grad) ---------------------------------------------------------------

RotaryMode check_mode(int64_t mode) {
  if (mode < 0 || mode > 3)
    tf::tiling_error("mode is {}, expected 0 (half), 1 (interleave), 2 (quarter) or 3 (interleave-half)", mode);
  return static_cast<RotaryMode>(mode);
}

void plan_rotary(OpBuilder& b, const aclTensor* x_arg, const aclTensor* cos_arg, const aclTensor* sin_arg,
                 int64_t mode_arg, const aclTensor* out_arg) {
  const aclTensor& x = b.input(x_arg, "x");
  const aclTensor& c = b.input(cos_arg, "cos");
  const aclTensor& s = b.input(sin_arg, "sin");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "x", x.dtype, tf::kF32F16BF16);
  check_same_dtype(c, "cos", x, "x");
  check_same_dtype(s, "sin", x, "x");
  check_same_dtype(out, "out", x, "x");
  check_dims(x, "x", 4);
  const RotaryMode mode = check_mode(mode_arg);
  if (out.view != x.view) tf::tiling_error("out has shape {}, expected the shape of x {}", dims_str(out.view), dims_str(x.view));
  if (x.numel() == 0) return;
  check_cos_broadcast(x, "x", c, "cos");
  if (s.view != c.view) tf::tiling_error("sin has shape {}, expected the shape of cos {}", dims_str(s.view), dims_str(c.view));
  check_rotary_dim(b.op(), mode, x.view[3], "x", true);
  DensePlan p(b);
  p.separate_outputs();
  const int ix = p.input(x, DType::kFloat), ic = p.input(c, DType::kFloat), is = p.input(s, DType::kFloat);
  const int io = p.output(out, DType::kFloat);
  const RowGeometry g = row_geometry(x.view, c.view);
  const RotaryMap map = rotary_map(mode, x.view[3]);
  p.finish(std::string("rope.") + mode_name(mode), [=](const DenseArgs& a) {
    rotate_rows(g, map, a.in<float>(ix), a.in<float>(ic), a.in<float>(is), a.out<float>(io));
  });
}

void plan_rotary_grad(OpBuilder& b, const aclTensor* dy_arg, const aclTensor* cos_arg, const aclTensor* sin_arg,
                      const aclTensor* x_arg, int64_t mode_arg, const aclTensor* dx_arg, const aclTensor* dcos_arg,
                      const aclTensor* dsin_arg) {
  const aclTensor& dy = b.input(dy_arg, "dy");
  const aclTensor& c = b.input(cos_arg, "cos");
  const aclTensor& s = b.input(sin_arg, "sin");
  const aclTensor* x = tf::optional_input(b, x_arg, "xOptional");
  const aclTensor& dx = b.output(dx_arg, "dxOut");
  // dcosOut and dsinOut are required arguments, written only when xOptional is given.
  live(dcos_arg, "dcosOut");
  live(dsin_arg, "dsinOut");
  const aclTensor* dcos = x ? &b.output(dcos_arg, "dcosOut") : nullptr;
  const aclTensor* dsin = x ? &b.output(dsin_arg, "dsinOut") : nullptr;
  check_dtype_in(b.op(), "dy", dy.dtype, tf::kF32F16BF16);
  check_same_dtype(c, "cos", dy, "dy");
  check_same_dtype(s, "sin", dy, "dy");
  check_same_dtype(dx, "dxOut", dy, "dy");
  if (x) {
    check_same_dtype(*x, "xOptional", dy, "dy");
    check_same_dtype(*dcos, "dcosOut", dy, "dy");
    check_same_dtype(*dsin, "dsinOut", dy, "dy");
  }
  check_dims(dy, "dy", 4);
  const RotaryMode mode = check_mode(mode_arg);
  if (dx.view != dy.view)
    tf::tiling_error("dxOut has shape {}, expected the shape of dy {}", dims_str(dx.view), dims_str(dy.view));
  if (x && x->view != dy.view)
    tf::tiling_error("xOptional has shape {}, expected the shape of dy {}", dims_str(x->view), dims_str(dy.view));
  check_cos_broadcast(dy, "dy", c, "cos");
  if (s.view != c.view) tf::tiling_error("sin has shape {}, expected the shape of cos {}", dims_str(s.view), dims_str(c.view));
  if (x) {
    if (dcos->view != c.view)
      tf::tiling_error("dcosOut has shape {}, expected the shape of cos {}", dims_str(dcos->view), dims_str(c.view));
    if (dsin->view != c.view)
      tf::tiling_error("dsinOut has shape {}, expected the shape of cos {}", dims_str(dsin->view), dims_str(c.view));
  }
  if (dy.numel() == 0 && (!x || c.numel() == 0)) return;
  check_rotary_dim(b.op(), mode, dy.view[3], "dy", true);
  DensePlan p(b);
  p.separate_outputs();
  const int idy = p.input(dy, DType::kFloat), ic = p.input(c, DType::kFloat), is = p.input(s, DType::kFloat);
  const int ix = x ? p.input(*x, DType::kFloat) : -1;
  const int idx = p.output(dx, DType::kFloat);
  const int idc = x ? p.output(*dcos, DType::kFloat) : -1;
  const int ids = x ? p.output(*dsin, DType::kFloat) : -1;
  const size_t cn = static_cast<size_t>(c.numel());
  const size_t acc = x ? p.scratch(2 * cn * sizeof(double)) : 0;
  const RowGeometry g = row_geometry(dy.view, c.view);
  const RotaryMap map = rotary_map(mode, dy.view[3]);
  p.finish(std::string("rope.grad.") + mode_name(mode), [=](const DenseArgs& a) {
    const float* gy = a.in<float>(idy);
    const float* cs = a.in<float>(ic);
    const float* sn = a.in<float>(is);
    float* gx = a.out<float>(idx);
    const int64_t d = g.d;
    parallel_for(g.rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(d, 1)), [&](int64_t from, int64_t to, int) {
      for (int64_t row = from; row < to; ++row) {
        const float* dyr = gy + row * d;
        const int64_t co = g.cos_row(row);
        float* dxr = gx + row * d;
        for (int64_t j = 0; j < d; ++j) dxr[j] = 0;
        for (int64_t j = 0; j < d; ++j) {
          const size_t u = static_cast<size_t>(j);
          dxr[map.p[u]] += dyr[j] * cs[co + j];
          dxr[map.r[u]] += map.sign[u] * dyr[j] * sn[co + j];
        }
      }
    });
    if (ix < 0) return;
    const float* xv = a.in<float>(ix);
    double* dc = a.scratch<double>(acc);
    double* ds = dc + cn;
    for (size_t i = 0; i < 2 * cn; ++i) dc[i] = 0;
    for (int64_t row = 0; row < g.rows; ++row) {
      const float* dyr = gy + row * d;
      const float* xr = xv + row * d;
      const int64_t co = g.cos_row(row);
      for (int64_t j = 0; j < d; ++j) {
        const size_t u = static_cast<size_t>(j);
        dc[co + j] += static_cast<double>(dyr[j]) * xr[map.p[u]];
        ds[co + j] += static_cast<double>(dyr[j]) * map.sign[u] * xr[map.r[u]];
      }
    }
    float* oc = a.out<float>(idc);
    float* os = a.out<float>(ids);
    for (size_t i = 0; i < cn; ++i) {
      oc[i] = static_cast<float>(dc[i]);
      os[i] = static_cast<float>(ds[i]);
    }
  });
}

// ---- RopeWithSinCosCache ------------------------------------------------------------------------

void plan_rope_cache(OpBuilder& b, const aclTensor* pos_arg, const aclTensor* q_arg, const aclTensor* k_arg,
                     const aclTensor* cache_arg, const aclIntArray* mrope_arg, int64_t head_size, bool neox,
                     const aclTensor* qo_arg, const aclTensor* ko_arg) {
  const aclTensor& pos = b.input(pos_arg, "positions");
  const aclTensor& q = b.input(q_arg, "queryIn");
  const aclTensor& k = b.input(k_arg, "keyIn");
  const aclTensor& cache = b.input(cache_arg, "cosSinCache");
  const aclIntArray* mrope = mrope_arg ? &b.int_array(mrope_arg, "mropeSection") : nullptr;
  const aclTensor& qo = b.output(qo_arg, "queryOut");
  const aclTensor& ko = b.output(ko_arg, "keyOut");
  check_dtype_in(b.op(), "positions", pos.dtype, tf::kIndexTypes);
  check_dtype_in(b.op(), "queryIn", q.dtype, tf::kF32F16BF16);
  check_same_dtype(k, "keyIn", q, "queryIn");
  check_same_dtype(cache, "cosSinCache", q, "queryIn");
  check_same_dtype(qo, "queryOut", q, "queryIn");
  check_same_dtype(ko, "keyOut", q, "queryIn");
  check_dims(q, "queryIn", 2);
  check_dims(k, "keyIn", 2);
  check_dims(cache, "cosSinCache", 2);
  if (k.view[0] != q.view[0])
    invalid("keyIn has {} tokens (shape {}), expected the {} of queryIn {}", k.view[0], dims_str(k.view), q.view[0],
            dims_str(q.view));
  tf::check_shape(qo, "queryOut", q.view, "the shape of queryIn");
  tf::check_shape(ko, "keyOut", k.view, "the shape of keyIn");
  if (head_size <= 0) invalid("headSize is {}, expected a positive head size", head_size);
  if (q.view[1] % head_size != 0 || k.view[1] % head_size != 0)
    invalid("headSize {} does not divide the last dims of queryIn {} and keyIn {}", head_size, dims_str(q.view),
            dims_str(k.view));
  const int64_t tokens = q.view[0], rot = cache.view[1];
  if (rot <= 0 || rot % 2 != 0 || rot > head_size)
    invalid("cosSinCache has shape {}: its last dim (rotaryDim) must be even, positive and at most headSize {}",
            dims_str(cache.view), head_size);
  const bool is_mrope = pos.dim() == 2;
  if (is_mrope) {
    if (pos.view[0] != 3 || pos.view[1] != tokens)
      invalid("positions has shape {}, expected [3, {}] (mrope) or [{}] (rope)", dims_str(pos.view), tokens, tokens);
    if (!mrope || mrope->values.size() != 3)
      invalid("mropeSection must hold 3 values for 2-d positions {} (mrope mode)", dims_str(pos.view));
    int64_t sum = 0;
    for (int64_t v : mrope->values) {
      if (v < 0) invalid("mropeSection has a negative entry {}", v);
      sum += v;
    }
    if (sum != rot / 2)
      invalid("mropeSection sums to {}, expected rotaryDim / 2 = {} (cosSinCache {})", sum, rot / 2,
              dims_str(cache.view));
  } else if (pos.dim() != 1 || pos.view[0] != tokens) {
    invalid("positions has shape {}, expected [{}] (rope) or [3, {}] (mrope)", dims_str(pos.view), tokens, tokens);
  }
  if (q.numel() == 0 && k.numel() == 0) return;
  std::vector<int64_t> section_of(static_cast<size_t>(rot / 2), 0);  // which positions row serves cos[i]
  if (is_mrope) {
    size_t i = 0;
    for (int64_t sec = 0; sec < 3; ++sec)
      for (int64_t n = 0; n < mrope->values[static_cast<size_t>(sec)]; ++n) section_of[i++] = sec;
  }
  DensePlan p(b);
  p.separate_outputs();
  const int ip = p.input(pos, DType::kInt64), iq = p.input(q, DType::kFloat), ik = p.input(k, DType::kFloat);
  const int ic = p.input(cache, DType::kFloat);
  const int iqo = p.output(qo, DType::kFloat), iko = p.output(ko, DType::kFloat);
  const int64_t max_pos = cache.view[0], qw = q.view[1], kw = k.view[1];
  p.finish(neox ? "rope.cache.neox" : "rope.cache.gptj", [=](const DenseArgs& a) {
    const int64_t* ps = a.in<int64_t>(ip);
    const int64_t npos = is_mrope ? 3 * tokens : tokens;
    for (int64_t i = 0; i < npos; ++i)
      if (ps[i] < 0 || ps[i] >= max_pos)
        invalid("aclnnRopeWithSinCosCache: positions[{}] is {}, outside the {} rows of cosSinCache", i, ps[i], max_pos);
    const float* cc = a.in<float>(ic);
    const int64_t half = rot / 2;
    auto one = [&](const float* in, float* out, int64_t width) {
      parallel_for(tokens, 16, [&](int64_t from, int64_t to, int) {
        std::vector<float> cs(static_cast<size_t>(rot));
        for (int64_t t = from; t < to; ++t) {
          for (int64_t i = 0; i < half; ++i) {  // gather this token's cos (first half) and sin (second half)
            const int64_t row = ps[section_of[static_cast<size_t>(i)] * tokens + t];
            cs[static_cast<size_t>(i)] = cc[row * rot + i];
            cs[static_cast<size_t>(half + i)] = cc[row * rot + half + i];
          }
          for (int64_t h0 = 0; h0 < width; h0 += head_size) {
            const float* x = in + t * width + h0;
            float* y = out + t * width + h0;
            for (int64_t i = 0; i < half; ++i) {
              const int64_t i1 = neox ? i : 2 * i, i2 = neox ? i + half : 2 * i + 1;
              const float x1 = x[i1], x2 = x[i2];
              const float cv = cs[static_cast<size_t>(i)], sv = cs[static_cast<size_t>(half + i)];
              y[i1] = x1 * cv - x2 * sv;
              y[i2] = x2 * cv + x1 * sv;
            }
            for (int64_t j = rot; j < head_size; ++j) y[j] = x[j];
          }
        }
      });
    };
    one(a.in<float>(iq), a.out<float>(iqo), qw);
    one(a.in<float>(ik), a.out<float>(iko), kw);
  });
}

}  // namespace
}  // namespace pacl

extern "C" aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                             const aclTensor* cos, const aclTensor* sin, int64_t layout,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ApplyRotaryPosEmb, "aclnnApplyRotaryPosEmbGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_apply_rotary(b, queryRef, keyRef, cos, sin, layout, pacl::RotaryMode::kHalf,
                                                    false);
                          });
}

extern "C" aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                               const aclTensor* cos, const aclTensor* sin,
                                                               int64_t layout, char* rotaryMode,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_ApplyRotaryPosEmbV2, "aclnnApplyRotaryPosEmbV2GetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_apply_rotary(b, queryRef, keyRef, cos, sin, layout,
                                                    pacl::parse_rotary_mode(rotaryMode), true);
                          });
}

extern "C" aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                                   const aclTensor* sin, int64_t mode, aclTensor* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RotaryPositionEmbedding, "aclnnRotaryPositionEmbeddingGetWorkspaceSize",
                          workspaceSize, executor,
                          [&](pacl::OpBuilder& b) { pacl::plan_rotary(b, x, cos, sin, mode, out); });
}

extern "C" aclnnStatus aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* cos, const aclTensor* sin, const aclTensor* xOptional, int64_t mode,
    const aclTensor* dxOut, const aclTensor* dcosOut, const aclTensor* dsinOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RotaryPositionEmbeddingGrad, "aclnnRotaryPositionEmbeddingGradGetWorkspaceSize",
                          workspaceSize, executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_rotary_grad(b, dy, cos, sin, xOptional, mode, dxOut, dcosOut, dsinOut);
                          });
}

extern "C" aclnnStatus aclnnRopeWithSinCosCacheGetWorkspaceSize(
    const aclTensor* positions, const aclTensor* queryIn, const aclTensor* keyIn, const aclTensor* cosSinCache,
    const aclIntArray* mropeSection, int64_t headSize, bool isNeoxStyle, aclTensor* queryOut, aclTensor* keyOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_RopeWithSinCosCache, "aclnnRopeWithSinCosCacheGetWorkspaceSize", workspaceSize,
                          executor, [&](pacl::OpBuilder& b) {
                            pacl::plan_rope_cache(b, positions, queryIn, keyIn, cosSinCache, mropeSection, headSize,
                                                  isNeoxStyle, queryOut, keyOut);
                          });
}
