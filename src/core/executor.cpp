#include "core/executor.h"

#include <array>
#include <cstring>
#include <mutex>

#include "aclnn/acl_meta.h"
#include "core/phase.h"
#include "core/registry_live.h"
#include "pacl/info.h"
#include "runtime/observer.h"
#include "runtime/runtime.h"
#include "runtime/trace.h"

namespace pacl {

const aclTensor& OpBuilder::add(const aclTensor* t, std::string name, bool is_output) {
  const aclTensor& ref = live(t, name.c_str());
  e_.slots.push_back(
      TensorSlot{const_cast<aclTensor*>(t), std::move(name), is_output, ref.view, ref.strides, ref.offset, ref.dtype,
                 ref.format});
  return ref;
}

std::vector<const aclTensor*> OpBuilder::add_list(const aclTensorList* l, const char* name, bool is_output) {
  const aclTensorList& list = live(l, name);
  std::vector<const aclTensor*> r;
  r.reserve(list.items.size());
  for (size_t i = 0; i < list.items.size(); ++i)
    r.push_back(&add(list.items[i], fmt::format("{}[{}]", name, i), is_output));
  return r;
}

const aclTensor& OpBuilder::input(const aclTensor* t, const char* name) { return add(t, name, false); }
const aclTensor& OpBuilder::output(const aclTensor* t, const char* name) { return add(t, name, true); }
const aclScalar& OpBuilder::scalar(const aclScalar* s, const char* name) { return live(s, name); }
const aclIntArray& OpBuilder::int_array(const aclIntArray* a, const char* name) { return live(a, name); }
const aclFloatArray& OpBuilder::float_array(const aclFloatArray* a, const char* name) { return live(a, name); }
const aclBoolArray& OpBuilder::bool_array(const aclBoolArray* a, const char* name) { return live(a, name); }
const aclScalarList& OpBuilder::scalar_list(const aclScalarList* l, const char* name) { return live(l, name); }
std::vector<const aclTensor*> OpBuilder::input_list(const aclTensorList* l, const char* name) {
  return add_list(l, name, false);
}
std::vector<const aclTensor*> OpBuilder::output_list(const aclTensorList* l, const char* name) {
  return add_list(l, name, true);
}

int OpBuilder::slot_of(const aclTensor& t) const {
  for (size_t i = 0; i < e_.slots.size(); ++i)
    if (e_.slots[i].tensor == &t) return static_cast<int>(i);
  return -1;
}

void OpBuilder::kernel_sets_view(const aclTensor& t) {
  const int k = slot_of(t);
  if (k < 0 || !e_.slots[static_cast<size_t>(k)].is_output) throw std::logic_error("kernel_sets_view: not an output slot");
  e_.slots[static_cast<size_t>(k)].kernel_sets_view = true;
}

void set_view_from_kernel(aclTensor* t, const Dims& view) {
  LiveObjects::get().with_live(t, Magic::kTensor, [&] {
    t->view = view;
    t->strides = contiguous_strides(view);
  });
}

void OpBuilder::set_kernel(std::shared_ptr<const Kernel> k, uint64_t workspace_bytes) {
  e_.kernel = std::move(k);
  e_.workspace_size = workspace_bytes;
}

aclOpExecutor* publish_executor(std::unique_ptr<aclOpExecutor> e) {
  aclOpExecutor* raw = e.release();
  LiveObjects::get().add(raw, Magic::kExecutor);
  if (Observer* o = observer()) o->object_created(raw, "aclOpExecutor", nullptr);
  return raw;
}

aclOpExecutor& live_executor(aclOpExecutor* ex, int null_code) {
  if (!ex) throw Error(null_code, kAclInvalidParam, "argument 'executor' is null");
  if (LiveObjects::get().kind_of(ex) != Magic::kExecutor)
    invalid("executor {} is not live: a non-repeatable executor is consumed by its phase-2 call, and "
            "aclDestroyAclOpExecutor frees a repeatable one; run phase 1 again to get a new executor",
            static_cast<const void*>(ex));
  return *ex;
}

void destroy_executor(aclOpExecutor* ex, const char* api) {
  if (LiveObjects::get().kind_of(ex) != Magic::kExecutor) return;
  if (Observer* o = observer()) o->object_destroying(ex, "aclOpExecutor", api);
  if (LiveObjects::get().remove(ex, Magic::kExecutor)) delete ex;
}

namespace {

// Resolves and checks the data address of one bound tensor at phase 2.
void* resolve(const OpInfo& op, const TensorSlot& s) {
  if (LiveObjects::get().kind_of(s.tensor) != Magic::kTensor)
    invalid("tensor '{}' of aclnn{} was destroyed between phase 1 and phase 2", s.name, op.name);
  aclTensor planned_view;
  if (s.kernel_sets_view) {  // the view a previous run published is not the one planned: use the plan
    planned_view.data = s.tensor->data;  // fields a kernel never writes: no race with a running one
    planned_view.offset = s.tensor->offset;
    planned_view.dtype = s.tensor->dtype;
    planned_view.format = s.tensor->format;
    planned_view.view = s.view;
    planned_view.strides = s.strides;
  }
  const aclTensor& t = s.kernel_sets_view ? planned_view : *s.tensor;
  if (t.view != s.view || t.strides != s.strides || t.offset != s.offset || t.dtype != s.dtype ||
      t.format != s.format) {
    aclTensor planned;
    planned.view = s.view;
    planned.strides = s.strides;
    planned.offset = s.offset;
    planned.dtype = s.dtype;
    planned.format = s.format;
    const std::string msg =
        fmt::format("tensor '{}' changed since phase 1 (planned as {}, now {}): run aclnn{}GetWorkspaceSize again",
                    s.name, planned.describe(), t.describe(), op.name);
    if (Observer* o = observer())
      o->contract_error("executor-misuse", fmt::format("aclnn{}", op.name).c_str(), msg,
                        fmt::format("call aclnn{}GetWorkspaceSize again after changing a tensor's shape, strides, "
                                    "offset, dtype or format (aclInitTensor); an executor is planned for the "
                                    "tensors as they were",
                                    op.name));
    invalid("{}", msg);
  }
  if (t.numel() == 0) return t.first();
  if (!t.data) invalid("tensor '{}' ({}) has no data address", s.name, t.describe());
  int64_t lo, hi;
  t.byte_extent(&lo, &hi);
  const char* base = static_cast<const char*>(t.data);
  Allocation a;
  const int dev = Runtime::get().device_of(base + lo, &a);
  if (dev == Runtime::kFreedDeviceMemory)
    invalid("tensor '{}' ({}) points into device memory that was already freed (aclrtFree)", s.name, t.describe());
  if (dev < 0) {
    const bool host = Runtime::get().is_host_registered(base + lo);
    invalid("tensor '{}' ({}) address {} is {}, not device memory: copy the data to memory from aclrtMalloc first",
            s.name, t.describe(), static_cast<const void*>(base + lo),
            host ? "host memory from aclrtMallocHost" : "host memory");
  }
  const auto end = reinterpret_cast<uintptr_t>(base + hi);
  if (end > a.base + a.usable)
    invalid("tensor '{}' ({}) spans {} bytes from {} and overruns its device allocation of {} bytes at {:#x}", s.name,
            t.describe(), hi - lo, static_cast<const void*>(base + lo), a.requested, a.base);
  return t.first();
}

void check_workspace(const aclOpExecutor& e, void* workspace, uint64_t size) {
  const uint64_t need = e.workspace_size;
  if (need == 0) return;
  if (!workspace)
    throw NullArgument(fmt::format("workspace is null but phase 1 booked {} bytes: allocate workspaceSize bytes with "
                                   "aclrtMalloc and pass them",
                                   need));
  if (size < need)
    invalid("workspaceSize {} is smaller than the {} bytes phase 1 returned", size, need);
  Allocation a;
  const int dev = Runtime::get().device_of(workspace, &a);
  if (dev == Runtime::kFreedDeviceMemory) invalid("workspace {} was already freed (aclrtFree)", workspace);
  if (dev < 0) invalid("workspace {} is not device memory (allocate it with aclrtMalloc)", workspace);
  if (reinterpret_cast<uintptr_t>(workspace) + need > a.base + a.usable)
    invalid("workspace {} holds only {} bytes up to the end of its allocation, phase 1 booked {}", workspace,
            a.base + a.usable - reinterpret_cast<uintptr_t>(workspace), need);
}

// What a launch reads and writes, for the checker: each bound tensor's view (outputs written,
// inputs read) and the booked workspace (read and written).
std::vector<MemAccess> launch_accesses(const OpInfo& op, const aclOpExecutor& e, void* workspace) {
  std::vector<MemAccess> acc;
  for (const TensorSlot& slot : e.slots) {
    const aclTensor& t = *slot.tensor;
    if (t.numel() == 0 || !t.data) continue;
    int64_t lo, hi;
    t.byte_extent(&lo, &hi);
    MemAccess a;
    a.lo = reinterpret_cast<uintptr_t>(t.data) + static_cast<uintptr_t>(lo);
    a.hi = reinterpret_cast<uintptr_t>(t.data) + static_cast<uintptr_t>(hi);
    a.read = !slot.is_output;
    a.write = slot.is_output;
    a.what = fmt::format("aclnn{} argument '{}' ({})", op.name, slot.name, t.describe());
    a.object = slot.tensor;
    a.elem_size = t.elem_size();  // strides are never negative, so element [0..0] is at a.lo
    a.dims = t.view;
    a.strides = t.strides;
    acc.push_back(std::move(a));
  }
  if (e.workspace_size && workspace) {
    MemAccess w;
    w.lo = reinterpret_cast<uintptr_t>(workspace);
    w.hi = w.lo + e.workspace_size;
    w.read = w.write = true;
    w.what = fmt::format("aclnn{} workspace ({} bytes)", op.name, e.workspace_size);
    acc.push_back(std::move(w));
  }
  return acc;
}

// The trace args of a launch: op, kernel, workspace, each tensor as "name: float32[2, 3]".
std::string trace_args(const OpInfo& op, const aclOpExecutor& e, const Kernel& k) {
  std::string in, out;
  for (const TensorSlot& slot : e.slots) {
    std::string& list = slot.is_output ? out : in;
    if (!list.empty()) list += ",";
    list += trace::json_string(slot.name + ": " + slot.tensor->describe());
  }
  return fmt::format(R"json("op":{},"kernel":{},"workspace_bytes":{},"repeatable":{},"inputs":[{}],"outputs":[{}])json",
                     trace::json_string(std::string("aclnn") + op.name), trace::json_string(k.name()),
                     e.workspace_size, e.repeatable ? "true" : "false", in, out);
}

}  // namespace

int32_t run_phase2(const OpInfo& op, const char* api, void* workspace, uint64_t workspaceSize,
                   aclOpExecutor* executor, void* stream) noexcept {
  return c_call(ApiFamily::kAclnn, api, [&] {
    aclOpExecutor& e = live_executor(executor, kAclnnNullptr);
    // A non-repeatable executor is consumed by this call, whatever its outcome.
    struct Consume {
      aclOpExecutor* e;
      ~Consume() {
        if (e && !e->repeatable) destroy_executor(e, nullptr);  // consumed by its launch
      }
    } consume{&e};
    if (e.op != &op)
      invalid("executor was planned by aclnn{}GetWorkspaceSize and cannot be run by aclnn{}", e.op->name, op.name);
    check_workspace(e, workspace, workspaceSize);
    Stream& s = Runtime::get().stream(stream);
    Kicker::get().pay();  // ops queued before this one start running
    ++e.runs;
    if (!e.kernel) return;
    // One allocation per launch: the task captures a plain pointer (which std::function stores
    // inline) and owns the launch while it runs.
    struct Launch {
      std::shared_ptr<const Kernel> kernel;
      void* workspace;
      Stream* stream;
      const char* op;
      std::array<void*, 8> few;  // the data addresses, when there are at most 8 slots
      std::vector<void*> many;
      void** data() { return many.empty() ? few.data() : many.data(); }
      std::string trace_args;  // set when tracing
    };
    auto launch = std::make_unique<Launch>();
    launch->kernel = e.kernel;
    launch->workspace = e.workspace_size ? workspace : nullptr;
    launch->stream = &s;
    launch->op = op.name;
    if (e.slots.size() > launch->few.size()) launch->many.resize(e.slots.size());
    for (size_t i = 0; i < e.slots.size(); ++i) launch->data()[i] = resolve(op, e.slots[i]);
    if (trace::on()) launch->trace_args = trace_args(op, e, *e.kernel);
    Launch* raw = launch.get();
    const uint64_t seq = s.enqueue(
        [raw] {
          const std::unique_ptr<Launch> owned(raw);
          if (raw->trace_args.empty()) return raw->kernel->run(raw->data(), raw->workspace);
          const double t0 = trace::now_us();
          raw->kernel->run(raw->data(), raw->workspace);
          trace::task_span(*raw->stream, raw->op, t0, trace::now_us(), raw->trace_args);
        },
        nullptr);
    launch.release();  // the task owns it now
    if (Observer* o = observer()) {
      o->enqueued(s, seq, api, launch_accesses(op, e, workspace));
      std::vector<const void*> tensors;
      for (const TensorSlot& slot : e.slots) tensors.push_back(slot.tensor);
      o->executor_launched(&e, op.name, e.repeatable, s, seq, tensors);
    }
  });
}

}  // namespace pacl

// ---- executor C API -----------------------------------------------------------------------------

namespace {

using pacl::nn_call;

// Sets the storage address of `tensor`, which must be one of the executor's bound tensors.
void rebind(const char* api_kind, aclOpExecutor* executor, size_t index, aclTensor* tensor, void* addr,
            bool inputs, bool outputs) {
  aclOpExecutor& e = pacl::live_executor(executor, pacl::kAclnnInnerNullptr);
  if (!tensor) throw pacl::Error(pacl::kAclnnInnerNullptr, pacl::kAclInvalidParam, "argument 'tensor' is null");
  size_t count = 0;
  bool found = false;
  for (const pacl::TensorSlot& s : e.slots) {
    const bool eligible = s.is_output ? outputs : inputs;
    if (eligible) ++count;
    if (s.tensor == tensor) found = true;
  }
  if (index >= count)
    pacl::invalid("{} index {} is out of range: the aclnn{} executor has {} such tensors", api_kind, index, e.op->name,
                  count);
  if (!found)
    pacl::invalid("tensor {} is not bound to this aclnn{} executor; rebinding it would not change what runs",
                  static_cast<const void*>(tensor), e.op->name);
  tensor->data = addr;
}

void rebind_dynamic(aclOpExecutor* executor, size_t relativeIndex, aclTensorList* tensors, void* addr) {
  pacl::live_executor(executor, pacl::kAclnnInnerNullptr);
  if (!tensors) throw pacl::Error(pacl::kAclnnInnerNullptr, pacl::kAclInvalidParam, "argument 'tensors' is null");
  const aclTensorList& l = pacl::live(tensors, "tensors");
  if (relativeIndex >= l.items.size())
    pacl::invalid("relativeIndex {} is out of range for a tensor list of {}", relativeIndex, l.items.size());
  if (!l.items[relativeIndex]) pacl::invalid("tensor list element {} is null", relativeIndex);
  l.items[relativeIndex]->data = addr;
}

}  // namespace

extern "C" {

const char* paclExecutorKernelName(const aclOpExecutor* executor) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  aclOpExecutor* e = const_cast<aclOpExecutor*>(executor);
  if (!e || pacl::LiveObjects::get().kind_of(e) != pacl::Magic::kExecutor) return nullptr;
  if (e->kernel && e->kernel_name.empty()) e->kernel_name = e->kernel->name();
  return e->kernel_name.c_str();
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  return nn_call("aclSetAclOpExecutorRepeatable", [&] {
    aclOpExecutor& e = pacl::live_executor(executor, pacl::kAclnnInnerNullptr);
    if (e.runs > 0) throw pacl::Error(pacl::kAclnnInner, pacl::kAclInvalidParam,
                                      "the executor has already run; call this right after phase 1");
    e.repeatable = true;
  });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  return nn_call("aclDestroyAclOpExecutor", [&] {
    if (!executor) return;
    pacl::live_executor(executor, pacl::kAclnnInnerNullptr);
    pacl::destroy_executor(executor, "aclDestroyAclOpExecutor");
  });
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return nn_call("aclSetInputTensorAddr", [&] { rebind("input", executor, index, tensor, addr, true, false); });
}
aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return nn_call("aclSetOutputTensorAddr", [&] { rebind("output", executor, index, tensor, addr, false, true); });
}
aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return nn_call("aclSetTensorAddr", [&] { rebind("tensor", executor, index, tensor, addr, true, true); });
}
aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t, const size_t relativeIndex,
                                         aclTensorList* tensors, void* addr) {
  return nn_call("aclSetDynamicInputTensorAddr", [&] { rebind_dynamic(executor, relativeIndex, tensors, addr); });
}
aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t, const size_t relativeIndex,
                                          aclTensorList* tensors, void* addr) {
  return nn_call("aclSetDynamicOutputTensorAddr", [&] { rebind_dynamic(executor, relativeIndex, tensors, addr); });
}
aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t, const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) {
  return nn_call("aclSetDynamicTensorAddr", [&] { rebind_dynamic(executor, relativeIndex, tensors, addr); });
}

aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclSetInputTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclSetOutputTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclSetTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList* tensors, void* addr) {
  return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}
aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList* tensors, void* addr) {
  return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}
aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) {
  return aclSetDynamicTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

}  // extern "C"
