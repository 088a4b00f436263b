// Dispatch latency of a tiny op (Add of 1 Ki float32), stage by stage, next to PyTorch's
// synchronous at::add_out on the same sizes.

#include "aclnnop/aclnn_add.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

// The shared 1 Ki Add plus one repeatable executor of it.
struct Operands {
  Operands() : add(1024), repeatable(add.plan()) { aclSetAclOpExecutorRepeatable(repeatable); }
  ~Operands() { aclDestroyAclOpExecutor(repeatable); }
  aclOpExecutor* plan() const { return add.plan(); }
  AddOperands add;
  aclOpExecutor* repeatable;
};

std::vector<Case> dispatch_cases(Environment& env) {
  auto o = std::make_shared<Operands>();
  aclrtStream s = env.stream;
  std::vector<Peer> torch;
#ifdef PACL_BENCH_TORCH
  auto ta = std::make_shared<at::Tensor>(at::rand({1024})), tb = std::make_shared<at::Tensor>(at::rand({1024})),
       tout = std::make_shared<at::Tensor>(at::empty({1024}));
  torch.push_back(Peer{"PyTorch at::add_out", [ta, tb, tout] { at::add_out(*tout, *ta, *tb); }});
#endif
  std::vector<Case> cases;
  cases.push_back(Case{"dispatch", "Add 1 Ki round trip: phase 1 + phase 2 + synchronize", Unit::kTime, 0,
                       [o, s] {
                         aclnnAdd(nullptr, 0, o->plan(), s);
                         aclrtSynchronizeStream(s);
                       },
                       torch});
  cases.push_back(Case{"dispatch", "phase 1 (+ destroy the executor)", Unit::kTime, 0,
                       [o] { aclDestroyAclOpExecutor(o->plan()); }, {}});
  cases.push_back(Case{"dispatch", "phase 2 + synchronize, repeatable executor", Unit::kTime, 0,
                       [o, s] {
                         aclnnAdd(nullptr, 0, o->repeatable, s);
                         aclrtSynchronizeStream(s);
                       },
                       torch});
  cases.push_back(Case{"dispatch", "phase 2 enqueue only (64 per synchronize)", Unit::kTime, 0,
                       [o, s] {
                         static int k = 0;
                         aclnnAdd(nullptr, 0, o->repeatable, s);
                         if (++k % 64 == 0) aclrtSynchronizeStream(s);
                       },
                       {}});
  cases.push_back(Case{"dispatch", "synchronize of an idle stream", Unit::kTime, 0,
                       [s] { aclrtSynchronizeStream(s); }, {}});
  return cases;
}

const RegisterGroup kDispatch(dispatch_cases);

}  // namespace
}  // namespace pacl::bench
