// The op runner: host time per synchronous call of Add on 1 Ki elements, through the runner with
// each workspace strategy, next to the raw two-phase path with a per-call aclrtMalloc/aclrtFree of
// the workspace (what a program writes by hand) and next to the floor (phase 2 + synchronize of a
// repeatable executor). Float32 + float32 books no workspace; float16 + float32 books 4 KiB (the
// float16 operand converted). Also the pool's cached Allocate + Free against aclrtMalloc + aclrtFree.
#include <cstdio>
#include <cstdlib>

#include "aclnnop/aclnn_add.h"
#include "bench_cases.h"
#include "pacl/runner.h"

namespace pacl::bench {
namespace {

void check_status(aclnnStatus s, const char* what) {
  if (s != 0) {
    std::fprintf(stderr, "%s failed (%d): %s\n", what, s, aclGetRecentErrMsg());
    std::exit(1);
  }
}

struct Operands {
  Operands() : a(ACL_FLOAT, {1024}), h(ACL_FLOAT16, {1024}), b(ACL_FLOAT, {1024}), out(ACL_FLOAT, {1024}) {
    float one = 1.0f;
    alpha = aclCreateScalar(&one, ACL_FLOAT);
  }
  ~Operands() {
    for (aclOpExecutor* e : repeatable) aclDestroyAclOpExecutor(e);
    aclDestroyScalar(alpha);
    pacl::ReleaseResources();  // the group is done: the runner's cache, blocks and pools go too
  }
  DeviceTensor a, h, b, out;
  aclScalar* alpha = nullptr;
  std::vector<aclOpExecutor*> repeatable;
};

// Phase 1, aclrtMalloc(workspace), phase 2, synchronize, aclrtFree.
std::function<void()> raw_call(aclrtStream s, std::shared_ptr<Operands> o, const aclTensor* self) {
  return [s, o, self] {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    check_status(aclnnAddGetWorkspaceSize(self, o->b.get(), o->alpha, o->out.get(), &ws, &e), "Add phase 1");
    void* w = nullptr;
    if (ws) check_status(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check_status(aclnnAdd(w, ws, e, s), "Add phase 2");
    check_status(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
    if (w) aclrtFree(w);
  };
}

// The floor under any wrapper: phase 2 of a ready executor and the synchronize.
std::function<void()> floor_call(aclrtStream s, std::shared_ptr<Operands> o, const aclTensor* self) {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  check_status(aclnnAddGetWorkspaceSize(self, o->b.get(), o->alpha, o->out.get(), &ws, &e), "Add phase 1");
  aclSetAclOpExecutorRepeatable(e);
  o->repeatable.push_back(e);
  void* w = nullptr;
  if (ws) w = pacl::DefaultPool().Allocate(ws, s);  // held for the whole run
  return [s, o, e, w, ws] {
    check_status(aclnnAdd(w, ws, e, s), "Add phase 2");
    check_status(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
  };
}

std::function<void()> runner_call(aclrtStream s, std::shared_ptr<Operands> o, const aclTensor* self,
                                  pacl::WorkspaceStrategy strategy, bool cache) {
  pacl::RunOptions opts;
  opts.stream = s;
  opts.workspace = strategy;
  opts.cache = cache;
  return [opts, o, self] {
    pacl::Run(opts, aclnnAddGetWorkspaceSize, aclnnAdd, self, o->b.get(), pacl::Scalar(1.0f), o->out.get());
  };
}

std::function<void()> by_name_call(aclrtStream s, std::shared_ptr<Operands> o, const aclTensor* self,
                                   pacl::WorkspaceStrategy strategy) {
  return [s, o, self, strategy] {
    pacl::OpRunner("Add", s).Workspace(strategy).AddInput(self).AddInput(o->b.get()).AddScalar(1.0f).AddOutput(o->out.get()).Run();
  };
}

std::vector<Case> runner_cases(Environment& env) {
  auto o = std::make_shared<Operands>();
  const aclrtStream s = env.stream;
  std::vector<Case> cases;
  const struct {
    const char* label;
    const aclTensor* self;
  } inputs[] = {{"Add 1 Ki f32", o->a.get()}, {"Add 1 Ki f16+f32 (4 KiB workspace)", o->h.get()}};
  using WS = pacl::WorkspaceStrategy;
  for (const auto& in : inputs) {
    const std::string l = in.label;
    const Peer raw{"raw phase 1 + malloc + phase 2 + sync + free", raw_call(s, o, in.self)};
    const Peer floor{"floor: phase 2 + sync of a ready executor", floor_call(s, o, in.self)};
    cases.push_back(Case{"runner", l + ": runner, per-call workspace, cache off", Unit::kTime, 0,
                         runner_call(s, o, in.self, WS::kPerCall, false), {raw}});
    cases.push_back(Case{"runner", l + ": runner, warm cache + per-call workspace", Unit::kTime, 0,
                         runner_call(s, o, in.self, WS::kPerCall, true), {raw}});
    cases.push_back(Case{"runner", l + ": runner, warm cache + per-stream block", Unit::kTime, 0,
                         runner_call(s, o, in.self, WS::kPerStream, true), {raw, floor}});
    cases.push_back(Case{"runner", l + ": runner, warm cache + pool", Unit::kTime, 0,
                         runner_call(s, o, in.self, WS::kPool, true), {raw, floor}});
    cases.push_back(Case{"runner", l + ": runner by name, warm cache + per-stream block", Unit::kTime, 0,
                         by_name_call(s, o, in.self, WS::kPerStream), {raw}});
  }
  auto pool = std::make_shared<pacl::WorkspacePool>();
  cases.push_back(Case{"runner", "pool: cached Allocate + Free of 4 KiB", Unit::kTime, 0,
                       [pool, s, o] { pool->Free(pool->Allocate(4096, s), s); },
                       {Peer{"aclrtMalloc + aclrtFree of 4 KiB", [] {
                               void* p = nullptr;
                               check_status(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
                               aclrtFree(p);
                             }}}});
  return cases;
}

const RegisterGroup kRunner(runner_cases);

}  // namespace
}  // namespace pacl::bench
