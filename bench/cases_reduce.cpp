// Reduction cases (issue: ReduceSum over the last axis and over all axes of 16 Mi float32): pacl's
// full synchronous call next to the triad probe of the same bytes and PyTorch's at::sum_out.
// Target (perf.md): last-axis ReduceSum >= 0.8x the triad bandwidth and >= 1.2x PyTorch.
#include "aclnnop/aclnn_reduce_sum.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

struct IntArrayHolder {
  explicit IntArrayHolder(std::vector<int64_t> v) : a(aclCreateIntArray(v.data(), v.size())) {}
  ~IntArrayHolder() { aclDestroyIntArray(a); }
  aclIntArray* a;
};

std::vector<Case> reduce_cases(Environment& env) {
  std::vector<Case> cases;
  const int64_t n = int64_t{1} << 24;
  struct Shape {
    std::string name;
    std::vector<int64_t> self, dims, out;
  };
  const Shape shapes[] = {
      {"ReduceSum last axis f32 4 Ki x 4 Ki", {4096, 4096}, {1}, {4096}},
      {"ReduceSum all axes f32 16 Mi", {n}, {}, {}},
  };
  for (const Shape& s : shapes) {
    auto self = std::make_shared<DeviceTensor>(aclDataType::ACL_FLOAT, s.self);
    auto out = std::make_shared<DeviceTensor>(aclDataType::ACL_FLOAT, s.out);
    auto dims = std::make_shared<IntArrayHolder>(s.dims);
    const double bytes = static_cast<double>(self->bytes() + out->bytes());
    Phase1 p1 = [self, out, dims](uint64_t* w, aclOpExecutor** e) {
      return aclnnReduceSumGetWorkspaceSize(self->get(), dims->a, false, ACL_FLOAT, out->get(), w, e);
    };
    Case c{"reduce", s.name, Unit::kBandwidth, bytes,
           [self, out, dims, call = op_call(env, "aclnnReduceSum", p1, aclnnReduceSum)] { call(); }, {}};
    c.peers.push_back(Peer{"triad probe, same bytes", triad_probe(env, bytes)});
#ifdef PACL_BENCH_TORCH
    if (env.torch) {
      auto ta = std::make_shared<at::Tensor>(at::rand(s.self) * 4 - 2);
      auto tout = std::make_shared<at::Tensor>(at::empty(s.out));
      std::vector<int64_t> tdims = s.dims;
      if (tdims.empty()) tdims.push_back(0);
      c.peers.push_back(Peer{"PyTorch", [ta, tout, tdims] { at::sum_out(*tout, *ta, tdims); }});
    }
#endif
    cases.push_back(std::move(c));
  }
  return cases;
}

const RegisterGroup kReduce(reduce_cases);

}  // namespace
}  // namespace pacl::bench
