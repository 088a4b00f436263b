// `pacl op "<descriptor>"`: one aclnn op from a one-line problem descriptor (op_command.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace paclcli {

struct OpOptions {
  uint64_t seed = 0;            // inputs are random with this seed (--fill random)
  std::string fill = "random";  // random | zeros | ones | arange | <number>
  int bench = 0;                // timed runs after the first (0: none)
  bool verify = false;          // compare the outputs with PyTorch
  std::string reference;        // the reference script (tools/pacl/reference.py)
};

// Exit status: 0 success (and verified), 1 the op failed or differs from the reference, 2 a bad
// descriptor or no reference.
int OpCommand(const std::string& descriptor, const OpOptions& options);

}  // namespace paclcli
