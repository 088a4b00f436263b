// The op registry: one OpInfo per line of registry.def.
#pragma once

#include <vector>

#include "core/executor.h"

namespace pacl {

#define PACL_OP(name, header) extern const OpInfo op_##name;
#include "ops/registry.def"
#undef PACL_OP

// All ops, in registry order.
const std::vector<const OpInfo*>& all_ops();

}  // namespace pacl
