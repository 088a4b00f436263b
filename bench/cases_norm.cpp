// Softmax / norm cases (perf.md: Softmax, LayerNorm, RmsNorm over the last axis >= 0.8x triad
// bandwidth, >= 1.2x PyTorch): [4096, 4096] float32, the figure is bytes read + written (x in,
// y out; the per-row statistics and the 16 KiB of weights are negligible) per second, next to the
// triad probe over the same bytes and PyTorch's CPU kernels (RmsNorm: PyTorch 1.13 has none, so
// its peer is the composition x * rsqrt(mean(x^2) + eps) * w).
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

constexpr int64_t kRows = 4096, kCols = 4096;

struct Operands {
  Operands()
      : x(ACL_FLOAT, {kRows, kCols}, -4, 4), y(ACL_FLOAT, {kRows, kCols}), w(ACL_FLOAT, {kCols}, 0.5, 1.5, 2),
        b(ACL_FLOAT, {kCols}, -1, 1, 3), mean(ACL_FLOAT, {kRows, 1}), rstd(ACL_FLOAT, {kRows, 1}) {
    const int64_t n = kCols;
    norm_shape = aclCreateIntArray(&n, 1);
  }
  ~Operands() { aclDestroyIntArray(norm_shape); }
  DeviceTensor x, y, w, b, mean, rstd;
  aclIntArray* norm_shape = nullptr;
};

#ifdef PACL_BENCH_TORCH
struct TorchOperands {
  TorchOperands()
      : x(at::rand({kRows, kCols}) * 8 - 4), y(at::empty({kRows, kCols})), w(at::rand({kCols}) + 0.5),
        b(at::rand({kCols}) * 2 - 1), mean(at::empty({kRows, 1})), rstd(at::empty({kRows, 1})) {}
  at::Tensor x, y, w, b, mean, rstd;
};
#endif

std::vector<Case> norm_cases(Environment& env) {
  std::vector<Case> cases;
  auto o = std::make_shared<Operands>();
#ifdef PACL_BENCH_TORCH
  auto t = std::make_shared<TorchOperands>();
#endif
  const double bytes = 2.0 * 4.0 * static_cast<double>(kRows * kCols);
  auto add = [&](std::string op, Phase1 p1, Phase2 p2, std::function<void()> torch_fn, const char* torch_name) {
    Case c{"softmax_norm", op + " f32 [4096, 4096] last axis", Unit::kBandwidth, bytes,
           [o, call = op_call(env, "aclnn" + op, std::move(p1), p2)] { call(); }, {}};
    c.peers.push_back(Peer{"triad probe, same bytes", triad_probe(env, bytes)});
    if (torch_fn) c.peers.push_back(Peer{torch_name, std::move(torch_fn)});
    cases.push_back(std::move(c));
  };
  std::function<void()> none;
#ifdef PACL_BENCH_TORCH
#define TORCH(expr) [t] { expr; }
#else
#define TORCH(expr) none
#endif
  add("Softmax", [o](uint64_t* w, aclOpExecutor** e) { return aclnnSoftmaxGetWorkspaceSize(o->x.get(), -1, o->y.get(), w, e); },
      aclnnSoftmax, TORCH(at::_softmax_out(t->y, t->x, 1, false)), "PyTorch at::_softmax_out");
  add("LogSoftmax", [o](uint64_t* w, aclOpExecutor** e) { return aclnnLogSoftmaxGetWorkspaceSize(o->x.get(), -1, o->y.get(), w, e); },
      aclnnLogSoftmax, TORCH(at::_log_softmax_out(t->y, t->x, 1, false)), "PyTorch at::_log_softmax_out");
  add("LayerNorm",
      [o](uint64_t* w, aclOpExecutor** e) {
        return aclnnLayerNormGetWorkspaceSize(o->x.get(), o->norm_shape, o->w.get(), o->b.get(), 1e-5, o->y.get(),
                                              o->mean.get(), o->rstd.get(), w, e);
      },
      aclnnLayerNorm, TORCH(at::native_layer_norm_out(t->y, t->mean, t->rstd, t->x, {kCols}, t->w, t->b, 1e-5)),
      "PyTorch at::native_layer_norm_out");
  add("RmsNorm",
      [o](uint64_t* w, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(o->x.get(), o->w.get(), 1e-6, o->y.get(), o->rstd.get(), w, e);
      },
      aclnnRmsNorm,
      TORCH(at::mul_out(t->y, t->x * at::rsqrt(t->x.square().mean(-1, true) + 1e-6), t->w)),
      "PyTorch composed x * rsqrt(mean(x^2) + eps) * w");
#undef TORCH
  return cases;
}

const RegisterGroup kNorm(norm_cases);

}  // namespace
}  // namespace pacl::bench
