// Scaling cases (issue: time per element of Add and Softmax from 1 Ki to 256 Mi elements, no
// cliffs): each size is materialized only while it runs (256 Mi float32 is 1 GiB per tensor), next
// to the triad probe of the same bytes and PyTorch. Softmax runs over rows of 1024 elements.
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_softmax.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

constexpr int64_t kRow = 1024;

struct SoftmaxOperands {
  explicit SoftmaxOperands(int64_t n) : x(ACL_FLOAT, {n / kRow, kRow}, -4, 4), y(ACL_FLOAT, {n / kRow, kRow}) {}
  DeviceTensor x, y;
};

std::vector<Case> scaling_cases(Environment&) {
  std::vector<Case> cases;
  for (int64_t n = int64_t{1} << 10; n <= int64_t{1} << 28; n *= 4) {
    const double f4 = 4.0 * static_cast<double>(n);
    Case add{"scaling", "Add f32 " + size_name(n), Unit::kBandwidth, 3 * f4, {}, {}, {}};
    add.materialize = [n, f4](Environment& env, Case& c) {
      auto o = std::make_shared<AddOperands>(n);
      auto call = op_call(env, "aclnnAdd", [o](uint64_t* w, aclOpExecutor** e) {
        return aclnnAddGetWorkspaceSize(o->a.get(), o->b.get(), o->alpha, o->out.get(), w, e);
      }, aclnnAdd);
      c.pacl = [o, call] { call(); };
      c.peers.push_back(Peer{"triad probe, same bytes", triad_probe(env, 3 * f4)});
#ifdef PACL_BENCH_TORCH
      auto a = std::make_shared<at::Tensor>(at::rand({n}) * 4 - 2), b = std::make_shared<at::Tensor>(at::rand({n})),
           out = std::make_shared<at::Tensor>(at::empty({n}));
      c.peers.push_back(Peer{"PyTorch", [a, b, out] { at::add_out(*out, *a, *b); }});
#endif
    };
    cases.push_back(std::move(add));
    Case sm{"scaling", "Softmax f32 " + size_name(n) + " (rows of 1024)", Unit::kBandwidth, 2 * f4, {}, {}, {}};
    sm.materialize = [n, f4](Environment& env, Case& c) {
      auto o = std::make_shared<SoftmaxOperands>(n);
      auto call = op_call(env, "aclnnSoftmax", [o](uint64_t* w, aclOpExecutor** e) {
        return aclnnSoftmaxGetWorkspaceSize(o->x.get(), -1, o->y.get(), w, e);
      }, aclnnSoftmax);
      c.pacl = [o, call] { call(); };
      c.peers.push_back(Peer{"triad probe, same bytes", triad_probe(env, 2 * f4)});
#ifdef PACL_BENCH_TORCH
      auto x = std::make_shared<at::Tensor>(at::rand({n / kRow, kRow}) * 8 - 4),
           y = std::make_shared<at::Tensor>(at::empty({n / kRow, kRow}));
      c.peers.push_back(Peer{"PyTorch", [x, y] { at::_softmax_out(*y, *x, 1, false); }});
#endif
    };
    cases.push_back(std::move(sm));
  }
  return cases;
}

const RegisterGroup kScaling(scaling_cases);

}  // namespace
}  // namespace pacl::bench
