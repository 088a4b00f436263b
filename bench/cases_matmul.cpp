// GEMM cases (perf.md: f32 GEMM >= 0.95x the best of OpenBLAS / oneDNN called directly): pacl's full
// synchronous call (phase 1 + phase 2 + synchronize) next to OpenBLAS cblas_sgemm, oneDNN's matmul
// primitive (created once, executed per call) and PyTorch, all on the same shapes and thread count.
#include <cblas.h>
#include <omp.h>

#include <dnnl.hpp>
#include <memory>
#include <random>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

std::vector<float> random_floats(int64_t n, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (auto& x : v) x = u(rng);
  return v;
}

// The peers' own operands (host memory), [batch, m, k] @ [batch, k, n].
struct HostGemm {
  HostGemm(int64_t batch_, int64_t m_, int64_t n_, int64_t k_)
      : batch(batch_), m(m_), n(n_), k(k_), a(random_floats(batch * m * k, 1)), w(random_floats(batch * k * n, 2)),
        c(static_cast<size_t>(batch * m * n)) {}
  int64_t batch, m, n, k;
  std::vector<float> a, w, c;
};

std::function<void()> openblas_peer(const Environment& env, std::shared_ptr<HostGemm> g) {
  return [g, threads = env.threads] {
    openblas_set_num_threads(threads);
    for (int64_t i = 0; i < g->batch; ++i)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(g->m), static_cast<int>(g->n),
                  static_cast<int>(g->k), 1.0f, g->a.data() + i * g->m * g->k, static_cast<int>(g->k),
                  g->w.data() + i * g->k * g->n, static_cast<int>(g->n), 0.0f, g->c.data() + i * g->m * g->n,
                  static_cast<int>(g->n));
  };
}

std::function<void()> onednn_peer(const Environment& env, std::shared_ptr<HostGemm> g) {
  using dnnl::memory;
  struct State {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{eng};
    dnnl::matmul prim;
    memory a, w, c;
  };
  auto s = std::make_shared<State>();
  const bool batched = g->batch > 1;
  auto dims = [&](int64_t r, int64_t c) { return batched ? memory::dims{g->batch, r, c} : memory::dims{r, c}; };
  auto tag = batched ? memory::format_tag::abc : memory::format_tag::ab;
  memory::desc ad(dims(g->m, g->k), memory::data_type::f32, tag), wd(dims(g->k, g->n), memory::data_type::f32, tag),
      cd(dims(g->m, g->n), memory::data_type::f32, tag);
  s->prim = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(ad, wd, cd), s->eng));
  s->a = memory(ad, s->eng, g->a.data());
  s->w = memory(wd, s->eng, g->w.data());
  s->c = memory(cd, s->eng, g->c.data());
  return [g, s, threads = env.threads] {
    omp_set_num_threads(threads);
    s->prim.execute(s->stream, {{DNNL_ARG_SRC, s->a}, {DNNL_ARG_WEIGHTS, s->w}, {DNNL_ARG_DST, s->c}});
    s->stream.wait();
  };
}

std::vector<Case> matmul_cases(Environment& env) {
  std::vector<Case> cases;
  struct Shape {
    int64_t batch, m, n, k;
  };
  for (const Shape sh : {Shape{1, 256, 256, 256}, Shape{1, 1024, 1024, 1024}, Shape{1, 2048, 2048, 2048}, Shape{16, 128, 128, 128}}) {
    const bool batched = sh.batch > 1;
    auto dims = [&](int64_t r, int64_t c) {
      return batched ? std::vector<int64_t>{sh.batch, r, c} : std::vector<int64_t>{r, c};
    };
    auto a = std::make_shared<DeviceTensor>(ACL_FLOAT, dims(sh.m, sh.k));
    auto w = std::make_shared<DeviceTensor>(ACL_FLOAT, dims(sh.k, sh.n), -2, 2, 2);
    auto out = std::make_shared<DeviceTensor>(ACL_FLOAT, dims(sh.m, sh.n));
    const std::string name = batched ? "BatchMatMul f32 " + std::to_string(sh.batch) + "x" + std::to_string(sh.m) + "^3"
                                     : "Mm f32 " + std::to_string(sh.m) + "^3";
    Phase1 p1 = batched ? Phase1([a, w, out](uint64_t* ws, aclOpExecutor** e) {
      return aclnnBatchMatMulGetWorkspaceSize(a->get(), w->get(), out->get(), 0, ws, e);
    })
                        : Phase1([a, w, out](uint64_t* ws, aclOpExecutor** e) {
                            return aclnnMmGetWorkspaceSize(a->get(), w->get(), out->get(), 0, ws, e);
                          });
    auto call = op_call(env, batched ? "aclnnBatchMatMul" : "aclnnMm", p1, batched ? aclnnBatchMatMul : aclnnMm);
    Case c{"matmul", name, Unit::kFlops, 2.0 * static_cast<double>(sh.batch * sh.m * sh.n * sh.k),
           [a, w, out, call] { call(); }, {}};
    c.min_batch_seconds = 0.25;  // 2048^3 is ~0.1 s per call: at least a few calls per batch
    auto g = std::make_shared<HostGemm>(sh.batch, sh.m, sh.n, sh.k);
    c.peers.push_back(Peer{"OpenBLAS cblas_sgemm", openblas_peer(env, g)});
    c.peers.push_back(Peer{"oneDNN matmul", onednn_peer(env, g)});
#ifdef PACL_BENCH_TORCH
    {
      auto ta = std::make_shared<at::Tensor>(at::rand(dims(sh.m, sh.k)) * 4 - 2);
      auto tw = std::make_shared<at::Tensor>(at::rand(dims(sh.k, sh.n)) * 4 - 2);
      auto tc = std::make_shared<at::Tensor>(at::empty(dims(sh.m, sh.n)));
      if (batched) c.peers.push_back(Peer{"PyTorch", [ta, tw, tc] { at::bmm_out(*tc, *ta, *tw); }});
      else c.peers.push_back(Peer{"PyTorch", [ta, tw, tc] { at::mm_out(*tc, *ta, *tw); }});
    }
#endif
    cases.push_back(std::move(c));
  }
  return cases;
}

const RegisterGroup kMatmul(matmul_cases);

}  // namespace
}  // namespace pacl::bench
