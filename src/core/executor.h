// The executor model. Phase 1 (an op's GetWorkspaceSize) validates arguments and builds a Kernel:
// an immutable plan holding every decision (dtypes, merged dims, constants, booked workspace).
// The executor binds that kernel to the user's tensor objects. Phase 2 is one shared path for every
// op (run_phase2): it checks the executor, the workspace and each tensor's address, resolves the
// data pointers and enqueues the kernel on the stream. Queued work keeps the kernel alive through
// shared ownership, so destroying tensors or the executor after phase 2 is safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/meta.h"

namespace pacl {

// Identity of an op; one static instance per op, defined by the op registry (src/ops).
struct OpInfo {
  const char* name;    // "Add": the C entry points are aclnn<name>GetWorkspaceSize and aclnn<name>
  const char* header;  // "aclnn_add.h"
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  // data[i]: address of element [0..0] of bound tensor i (phase-1 binding order: inputs, then
  // outputs). workspace: at least the bytes booked at phase 1 (nullptr when none were booked).
  virtual void run(void* const* data, void* workspace) const = 0;
  // Short name of the implementation chosen at plan time, for traces and `pacl op`.
  virtual std::string name() const = 0;
};

struct TensorSlot {
  aclTensor* tensor;
  std::string name;  // parameter name ("self", "tensors[2]"), for messages
  bool is_output;
  // The description the kernel was planned for; phase 2 rejects a tensor that no longer matches.
  Dims view, strides;
  int64_t offset;
  DType dtype;
  int32_t format;
  // The kernel sets the tensor's view shape at run time (data-dependent output sizes): phase 2
  // checks the planned description, not the current view.
  bool kernel_sets_view = false;
};

}  // namespace pacl

struct aclOpExecutor {
  pacl::Magic magic = pacl::Magic::kExecutor;
  const pacl::OpInfo* op = nullptr;
  std::vector<pacl::TensorSlot> slots;  // inputs, then outputs, in parameter order
  std::shared_ptr<const pacl::Kernel> kernel;  // nullptr: nothing to run (empty output)
  uint64_t workspace_size = 0;
  bool repeatable = false;
  uint64_t runs = 0;
  std::string kernel_name;  // paclExecutorKernelName's text, made on first request
};

namespace pacl {

// Collects an op's arguments during phase 1. Each accessor checks the argument is live (null ->
// NullArgument naming the parameter) and records tensors as slots, in the order they are added.
class OpBuilder {
 public:
  explicit OpBuilder(aclOpExecutor& e) : e_(e) { e_.slots.reserve(4); }
  const aclTensor& input(const aclTensor* t, const char* name);
  const aclTensor& output(const aclTensor* t, const char* name);
  // An argument that is both read and written (selfRef of in-place ops): one slot, an output.
  const aclTensor& inout(const aclTensor* t, const char* name) { return output(t, name); }
  const aclScalar& scalar(const aclScalar* s, const char* name);
  const aclIntArray& int_array(const aclIntArray* a, const char* name);
  const aclFloatArray& float_array(const aclFloatArray* a, const char* name);
  const aclBoolArray& bool_array(const aclBoolArray* a, const char* name);
  const aclScalarList& scalar_list(const aclScalarList* l, const char* name);
  // Every element of a tensor list as an input (output) slot named "<name>[i]"; a null list or a
  // null element is a NullArgument naming it.
  std::vector<const aclTensor*> input_list(const aclTensorList* l, const char* name);
  std::vector<const aclTensor*> output_list(const aclTensorList* l, const char* name);
  // Slot index of the i-th tensor added (slot order = the order tensors were added).
  int slot_count() const { return static_cast<int>(e_.slots.size()); }
  int slot_of(const aclTensor& t) const;  // index of t among the slots; -1 if absent
  // Marks output t as one whose view shape the kernel sets (see set_view_from_kernel).
  void kernel_sets_view(const aclTensor& t);
  void set_kernel(std::shared_ptr<const Kernel> k, uint64_t workspace_bytes = 0);
  // The kernel and workspace set so far (lets an op wrap the kernel a shared planner built).
  const std::shared_ptr<const Kernel>& kernel() const { return e_.kernel; }
  uint64_t workspace_size() const { return e_.workspace_size; }
  const OpInfo& op() const { return *e_.op; }

 private:
  const aclTensor& add(const aclTensor* t, std::string name, bool is_output);
  std::vector<const aclTensor*> add_list(const aclTensorList* l, const char* name, bool is_output);
  aclOpExecutor& e_;
};

// For kernels with data-dependent output sizes (Nonzero, Unique, ...): sets t's view shape to
// `view` with contiguous strides once the result is known, as CANN does for such outputs (the
// caller reads it back with aclGetViewShape after synchronizing). t must have been marked with
// OpBuilder::kernel_sets_view; nothing happens if t was destroyed in the meantime.
void set_view_from_kernel(aclTensor* t, const Dims& view);

// Registers the live executor built in phase 1.
aclOpExecutor* publish_executor(std::unique_ptr<aclOpExecutor> e);
// Throws unless ex is a live executor (null -> NullArgument with `null_code`).
aclOpExecutor& live_executor(aclOpExecutor* ex, int null_code);
// Unregisters and frees an executor; api: the user's destroy call, or nullptr when phase 2 consumes it.
void destroy_executor(aclOpExecutor* ex, const char* api);

}  // namespace pacl
