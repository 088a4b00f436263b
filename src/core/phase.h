// The two C entry shapes every op shares: phase 1 (plan through an OpBuilder) and phase 2.
#pragma once

#include "core/executor.h"
#include "runtime/c_boundary.h"
#include "runtime/stream.h"

namespace pacl {

// Phase 1: checks the two out-parameters, runs `plan(OpBuilder&)`, publishes the executor.
template <typename Plan>
int32_t run_phase1(const OpInfo& op, const char* api, uint64_t* workspaceSize, aclOpExecutor** executor,
                   Plan&& plan) noexcept {
  return c_call(ApiFamily::kAclnn, api, [&] {
    Kicker::get().pay();  // ops queued before this one run while it is planned
    if (!workspaceSize) throw NullArgument("argument 'workspaceSize' is null");
    if (!executor) throw NullArgument("argument 'executor' is null");
    auto e = std::make_unique<aclOpExecutor>();
    e->op = &op;
    OpBuilder b(*e);
    plan(b);
    *workspaceSize = e->workspace_size;
    *executor = publish_executor(std::move(e));
  });
}

// Phase 2 of every op: validate, resolve addresses, enqueue, consume the executor.
int32_t run_phase2(const OpInfo& op, const char* api, void* workspace, uint64_t workspaceSize,
                   aclOpExecutor* executor, void* stream) noexcept;

}  // namespace pacl
