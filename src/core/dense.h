// Dense kernels: the one mechanism behind every op that is not elementwise (reductions, softmax,
// norms, matmul, data movement, indexing, ...).
//
// An op plans with a DensePlan: it names each tensor operand and the dtype its body wants to see
// (usually the compute dtype: float for float16/bfloat16, else the tensor's own). At run time the
// body sees every such operand as a dense row-major array of that dtype:
//   - an operand that already is one (contiguous, right dtype) is used in place;
//   - any other input is copied and converted into a workspace buffer before the body runs;
//   - any other output is computed into a workspace buffer and copied back (converted, strided)
//     after the body; with Access::kReadWrite its old contents are copied in first (in-place ops).
// An operand planned with strided() is handed to the body as it is (address of element [0..0]);
// the body walks its strides itself (BLAS with transposes, copies).
// Phase 1 books those buffers and any scratch the body asks for (scratch()), so phase 2 uses
// exactly what phase 1 reported, and an op whose operands are dense and of its compute dtype
// reports a workspace of 0.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/executor.h"

namespace pacl {

// out[i] = convert(in[i]) over `shape`, each side with its own element strides. Converting copies
// take any of the ten compute dtypes on either side; a same-dtype copy takes every storable dtype
// (it moves elements by size). Splits large copies across the intra-op threads.
void copy_strided(const Dims& shape, DType dst_t, void* dst, const Dims& dst_strides, DType src_t, const void* src,
                  const Dims& src_strides);

// Books workspace chunks at plan time: each 64-byte aligned, at an offset fixed at phase 1.
class WorkspaceBooking {
 public:
  size_t book(size_t bytes);  // offset of the new chunk
  size_t total() const { return total_; }

 private:
  size_t total_ = 0;
};

// What the body sees at run time.
class DenseArgs {
 public:
  template <typename T>
  const T* in(int k) const {
    return static_cast<const T*>(ptr_[k]);
  }
  template <typename T>
  T* out(int k) const {
    return static_cast<T*>(ptr_[k]);
  }
  void* ptr(int k) const { return ptr_[k]; }
  // A scratch chunk booked with DensePlan::scratch.
  template <typename T = void>
  T* scratch(size_t offset) const {
    return reinterpret_cast<T*>(workspace_ + offset);
  }

 private:
  friend class DenseKernel;
  std::vector<void*> ptr_;
  char* workspace_ = nullptr;
};

enum class Access { kWrite, kReadWrite };

class DensePlan {
 public:
  explicit DensePlan(OpBuilder& b) : b_(b) {}
  // t must already be a slot of the builder (b.input / b.output / b.inout / the list forms).
  // Each returns the operand's index k for DenseArgs::in/out/ptr.
  int input(const aclTensor& t, DType as);
  int output(const aclTensor& t, DType as, Access access = Access::kWrite);
  int strided(const aclTensor& t);
  // Outputs whose storage overlaps an input's (at plan time) are computed into a buffer and copied
  // out after the body; call this before adding outputs when the body cannot run in place.
  void separate_outputs() { separate_ = true; }
  size_t scratch(size_t bytes) { return booking_.book(bytes); }
  // Sets the executor's kernel; `name` names the chosen implementation ("reduce.sum.float32").
  void finish(std::string name, std::function<void(const DenseArgs&)> body);
  OpBuilder& builder() { return b_; }

 private:
  struct Operand {
    int slot;
    DType stored, as;
    Dims shape, strides;
    bool is_output, read, direct;
    size_t buffer;  // workspace offset when !direct
  };
  int add(const aclTensor& t, DType as, bool is_output, bool read, bool strided);
  friend class DenseKernel;
  OpBuilder& b_;
  std::vector<Operand> ops_;
  std::vector<const aclTensor*> inputs_;
  WorkspaceBooking booking_;
  bool separate_ = false;
};

}  // namespace pacl
