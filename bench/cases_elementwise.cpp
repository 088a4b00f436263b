// Elementwise cases (issue: Add, Mul, Cast f32->f16, Exp, Gelu, Sigmoid, SWhere at 1 Ki .. 16 Mi
// elements): pacl's full synchronous call next to the triad probe of the same bytes and PyTorch.
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

struct Operands {
  Operands(int64_t n)
      : a(ACL_FLOAT, {n}), b(ACL_FLOAT, {n}, -2, 2, 2), out(ACL_FLOAT, {n}), half_out(ACL_FLOAT16, {n}),
        cond(ACL_BOOL, {n}, 0, 1, 3) {
    float one = 1.0f;
    alpha = aclCreateScalar(&one, ACL_FLOAT);
  }
  ~Operands() { aclDestroyScalar(alpha); }
  DeviceTensor a, b, out, half_out, cond;
  aclScalar* alpha = nullptr;
};

#ifdef PACL_BENCH_TORCH
struct TorchOperands {
  explicit TorchOperands(int64_t n)
      : a(at::rand({n}) * 4 - 2), b(at::rand({n}) * 4 - 2), out(at::empty({n})),
        half_out(at::empty({n}, at::kHalf)), cond(at::rand({n}) > 0.5) {}
  at::Tensor a, b, out, half_out, cond;
};
#endif

std::vector<Case> elementwise_cases(Environment& env) {
  std::vector<Case> cases;
  for (int64_t n : {int64_t{1} << 10, int64_t{1} << 16, int64_t{1} << 20, int64_t{1} << 24}) {
    auto o = std::make_shared<Operands>(n);
#ifdef PACL_BENCH_TORCH
    auto t = std::make_shared<TorchOperands>(n);
#endif
    const double f4 = 4.0 * static_cast<double>(n);
    auto add = [&](std::string op, double bytes, Phase1 p1, Phase2 p2, std::function<void()> torch_fn) {
      Case c{"elementwise", op + " f32 " + size_name(n), Unit::kBandwidth, bytes,
             [o, call = op_call(env, "aclnn" + op, std::move(p1), p2)] { call(); }, {}};
      c.peers.push_back(Peer{"triad probe, same bytes", triad_probe(env, bytes)});
      if (torch_fn) c.peers.push_back(Peer{"PyTorch", std::move(torch_fn)});
      cases.push_back(std::move(c));
    };
    std::function<void()> none;
#ifdef PACL_BENCH_TORCH
#define TORCH(expr) [t] { expr; }
#else
#define TORCH(expr) none
#endif
    add("Add", 3 * f4, [o](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(o->a.get(), o->b.get(), o->alpha, o->out.get(), w, e); },
        aclnnAdd, TORCH(at::add_out(t->out, t->a, t->b)));
    add("Mul", 3 * f4, [o](uint64_t* w, aclOpExecutor** e) { return aclnnMulGetWorkspaceSize(o->a.get(), o->b.get(), o->out.get(), w, e); },
        aclnnMul, TORCH(at::mul_out(t->out, t->a, t->b)));
    add("Cast->f16", 1.5 * f4, [o](uint64_t* w, aclOpExecutor** e) { return aclnnCastGetWorkspaceSize(o->a.get(), ACL_FLOAT16, o->half_out.get(), w, e); },
        aclnnCast, TORCH(t->half_out.copy_(t->a)));
    add("Exp", 2 * f4, [o](uint64_t* w, aclOpExecutor** e) { return aclnnExpGetWorkspaceSize(o->a.get(), o->out.get(), w, e); },
        aclnnExp, TORCH(at::exp_out(t->out, t->a)));
    add("Gelu", 2 * f4, [o](uint64_t* w, aclOpExecutor** e) { return aclnnGeluGetWorkspaceSize(o->a.get(), o->out.get(), w, e); },
        aclnnGelu, TORCH(at::gelu_out(t->out, t->a, "tanh")));
    add("Sigmoid", 2 * f4, [o](uint64_t* w, aclOpExecutor** e) { return aclnnSigmoidGetWorkspaceSize(o->a.get(), o->out.get(), w, e); },
        aclnnSigmoid, TORCH(at::sigmoid_out(t->out, t->a)));
    add("SWhere", 3 * f4 + static_cast<double>(n), [o](uint64_t* w, aclOpExecutor** e) { return aclnnSWhereGetWorkspaceSize(o->cond.get(), o->a.get(), o->b.get(), o->out.get(), w, e); },
        aclnnSWhere, TORCH(at::where_out(t->out, t->cond, t->a, t->b)));
#undef TORCH
  }
  return cases;
}

const RegisterGroup kElementwise(elementwise_cases);

}  // namespace
}  // namespace pacl::bench
