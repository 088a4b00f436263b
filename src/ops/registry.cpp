#include "ops/registry.h"

#include "aclnn/acl_meta.h"
#include "core/phase.h"

namespace pacl {

#define PACL_OP(name, header) const OpInfo op_##name{#name, header};
#include "ops/registry.def"
#undef PACL_OP

const std::vector<const OpInfo*>& all_ops() {
  static const std::vector<const OpInfo*> ops{
#define PACL_OP(name, header) &op_##name,
#include "ops/registry.def"
#undef PACL_OP
  };
  return ops;
}

}  // namespace pacl

// Phase 2 is the same for every op.
extern "C" {
#define PACL_OP(name, header)                                                                                     \
  __attribute__((visibility("default"))) aclnnStatus aclnn##name(void* workspace, uint64_t workspaceSize,        \
                                                                 aclOpExecutor* executor, aclrtStream stream) { \
    return pacl::run_phase2(pacl::op_##name, "aclnn" #name, workspace, workspaceSize, executor, stream);         \
  }
#include "ops/registry.def"
#undef PACL_OP
}
