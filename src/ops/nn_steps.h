// Multi-step kernels of the nn family (Glu-like activations, losses).
//
// A StepPlan is a list of steps run in order at phase 2. Most steps are elementwise kernels of the
// shared engine (core/elementwise.h), but their operands are views rather than whole tensors:
//   - a bound tensor shifted by an element offset and read with strides of the plan's choosing
//     (the two halves of Glu's input are the same tensor at offsets 0 and N/2 * stride[dim]; a
//     per-channel weight is read with stride 0 everywhere but the channel dim);
//   - a dense buffer in the workspace (a per-element loss before its reduction, a staged copy).
// The other steps are plain functions of the run-time addresses (reductions, gathers, zeroing).
// Workspace (the engine's per-thread chunk buffers, staging buffers, scratch) is booked at plan
// time, so phase 2 needs exactly what phase 1 reported.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dense.h"
#include "core/elementwise.h"
#include "ops/elementwise_op.h"

namespace pacl::nn {

// Where an operand's data lives at run time: a bound tensor (address of its element [0..0]) or the
// workspace, plus a byte offset.
struct Ref {
  static constexpr int kWorkspace = -2;
  int slot = kWorkspace;
  int64_t byte_offset = 0;
};

// An operand of an elementwise step: its data, dtype and one element stride per dim of the step's
// shape (0 broadcasts).
struct View {
  Ref ref;
  DType dtype = DType::kFloat;
  Dims strides;
  // The same view moved by `elements` elements.
  View shifted(int64_t elements) const {
    View v = *this;
    v.ref.byte_offset += elements * static_cast<int64_t>(dtype_size(dtype));
    return v;
  }
  View with_strides(Dims s) const {
    View v = *this;
    v.strides = std::move(s);
    return v;
  }
};

// What a function step sees at run time.
class StepArgs {
 public:
  StepArgs(void* const* data, char* workspace) : data_(data), ws_(workspace) {}
  void* ptr(const Ref& r) const {
    char* base = r.slot == Ref::kWorkspace ? ws_ : static_cast<char*>(data_[r.slot]);
    return base + r.byte_offset;
  }
  template <typename T>
  T* get(const Ref& r) const {
    return static_cast<T*>(ptr(r));
  }
  template <typename T = char>
  T* scratch(size_t offset) const {
    return ws_ ? reinterpret_cast<T*>(ws_ + offset) : nullptr;
  }

 private:
  void* const* data_;
  char* ws_;
};

class StepPlan {
 public:
  explicit StepPlan(OpBuilder& b) : b_(b) {}
  OpBuilder& builder() { return b_; }

  // t (a slot of the builder) with its own shape and strides, moved by `offset` elements.
  View tensor(const aclTensor& t, int64_t offset = 0) const;
  // t read through `shape`: its dims right-aligned, size-1 dims broadcast (as the engine does).
  View broadcast(const aclTensor& t, const Dims& shape) const;
  // A dense row-major buffer of `shape` in the workspace.
  View buffer(DType dtype, const Dims& shape);
  // t as a dense row-major array of dtype `as` (t itself when it already is one, else a staged copy
  // made by a step added here).
  View dense_input(const aclTensor& t, DType as);
  // A dense row-major array of dtype `as` for output t (t itself when it already is one, else a
  // buffer copied to t after the last step). With `read`, t's old contents are copied in first.
  View dense_output(const aclTensor& t, DType as, bool read = false);
  // Raw scratch bytes (64-byte aligned): the offset for StepArgs::scratch.
  size_t scratch(size_t bytes) { return booking_.book(bytes); }

  // out = f(in...) over `shape`, computed in the arithmetic type of `compute` (float32 for 16-bit
  // floats); every input is converted to it exactly. make(type_tag<T>) gives f.
  template <size_t N, TypeSet Set = TypeSet::kFloating, typename Make>
  void elementwise(DType compute, const Dims& shape, const View& out, const std::array<View, N>& in, Make&& make);
  // A function step.
  void step(std::function<void(const StepArgs&)> fn) { steps_.push_back(std::move(fn)); }
  // Sets the builder's kernel (none when there are no steps).
  void finish(const std::string& name);

 private:
  template <size_t N>
  Geometry geometry(const Dims& shape, const View& out, const std::array<View, N>& in) const;
  template <size_t N>
  std::array<OperandSource, N> sources(DType compute, const std::array<View, N>& in) const;

  OpBuilder& b_;
  WorkspaceBooking booking_;
  std::vector<std::function<void(const StepArgs&)>> steps_;
  std::vector<std::function<void(const StepArgs&)>> final_;  // copy-backs of staged outputs
};

template <size_t N>
Geometry StepPlan::geometry(const Dims& shape, const View& out, const std::array<View, N>& in) const {
  std::vector<Dims> strides;
  strides.push_back(out.strides);
  for (const View& v : in) strides.push_back(v.strides);
  return merge_dims(shape, std::move(strides));
}

// Unlike plan_elementwise, no input is rounded to a 16-bit compute dtype first: a step's inputs are
// either of the compute dtype already or float32 buffers holding an earlier step's exact result.
template <size_t N>
std::array<OperandSource, N> StepPlan::sources(DType, const std::array<View, N>& in) const {
  std::array<OperandSource, N> s{};
  for (size_t k = 0; k < N; ++k) s[k] = OperandSource{static_cast<int>(k + 1), in[k].dtype, DType::kUndefined};
  return s;
}

template <size_t N, TypeSet Set, typename Make>
void StepPlan::elementwise(DType compute, const Dims& shape, const View& out, const std::array<View, N>& in,
                           Make&& make) {
  for (int64_t d : shape)
    if (d == 0) return;
  std::array<Ref, N + 1> refs;
  refs[0] = out.ref;
  for (size_t k = 0; k < N; ++k) refs[k + 1] = in[k].ref;
  Geometry g = geometry<N>(shape, out, in);
  const std::array<OperandSource, N> src = sources<N>(compute, in);
  visit_arithmetic<Set>(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto f = make(tag);
    const std::array<ConstantSlot, N> none{};
    auto k = std::make_shared<ElementwiseKernel<T, decltype(f), N>>(
        std::string("elementwise.") + b_.op().name, f, std::move(g), 0,
        out.dtype, src, none.data());
    const size_t ws = k->workspace_bytes() ? booking_.book(k->workspace_bytes()) : 0;
    steps_.push_back([k, refs, ws](const StepArgs& a) {
      std::array<void*, N + 1> p;
      for (size_t i = 0; i <= N; ++i) p[i] = a.ptr(refs[i]);
      k->run(p.data(), a.scratch(ws));
    });
  });
}

// ---- reductions -------------------------------------------------------------------------------------

// Sum of p[0..n) in double, deterministic whatever the thread count (fixed blocks, then in order).
// `partials` is scratch for sum_blocks(n) doubles.
int64_t sum_blocks(int64_t n);
double sum_dense(const float* p, int64_t n, double* partials);
double sum_dense(const double* p, int64_t n, double* partials);

// Stores v (converted to dtype t) at dst.
void store_double(DType t, void* dst, double v);

}  // namespace pacl::nn
