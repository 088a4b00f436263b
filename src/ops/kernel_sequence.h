// Composite plans: one op whose work is several independently planned kernels run one after another
// (the foreach ops: the same elementwise op applied to each tensor of a list).
//
// Each step is planned exactly as a single op plans its kernel -- into the builder, through
// plan_elementwise or a DensePlan, reading the op's own slots -- and plan_sequence collects it before
// planning the next. The op's kernel then runs the steps in order with the executor's data array, so
// a step planned for list element i touches only the slots of that element's tensors. The steps run
// one at a time, so they share one workspace: the op books the largest step's, not the sum.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/executor.h"

namespace pacl {

class KernelSequence final : public Kernel {
 public:
  KernelSequence(std::string name, std::vector<std::shared_ptr<const Kernel>> steps)
      : name_(std::move(name)), steps_(std::move(steps)) {}

  void run(void* const* data, void* workspace) const override {
    for (const auto& k : steps_) k->run(data, workspace);
  }
  // "foreach.ForeachExp[2: elementwise.ForeachExp<float32>, elementwise.ForeachExp<float32>]"
  std::string name() const override {
    std::string r = name_ + "[" + std::to_string(steps_.size()) + ":";
    for (size_t i = 0; i < steps_.size() && i < 3; ++i) r += (i ? ", " : " ") + steps_[i]->name();
    return r + (steps_.size() > 3 ? ", ...]" : "]");
  }

 private:
  std::string name_;
  std::vector<std::shared_ptr<const Kernel>> steps_;
};

// Calls plan_step(i) for i in [0, n); each call plans at most one kernel into `b` (none for an empty
// output). The op's kernel becomes the sequence of those kernels (nullptr when there are none), and
// its workspace the largest any of them booked.
template <typename PlanStep>
void plan_sequence(OpBuilder& b, const std::string& name, size_t n, PlanStep&& plan_step) {
  std::vector<std::shared_ptr<const Kernel>> steps;
  uint64_t workspace = 0;
  for (size_t i = 0; i < n; ++i) {
    b.set_kernel(nullptr, 0);
    plan_step(i);
    if (!b.kernel()) continue;
    steps.push_back(b.kernel());
    workspace = std::max(workspace, b.workspace_size());
  }
  if (steps.empty()) b.set_kernel(nullptr, 0);
  else b.set_kernel(std::make_shared<KernelSequence>(name, std::move(steps)), workspace);
}

}  // namespace pacl
