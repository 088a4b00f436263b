// The aclnn meta objects. aclTensor is a strided view (dims, strides, element offset, dtype, format)
// over a storage (storage dims + base address). Scalars keep their value bytes; arrays copy their
// input; lists own their elements. Each object starts with a magic number so that a destroyed or
// foreign pointer is reported instead of used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/small_vector.h"

namespace pacl {

inline constexpr int kMaxDims = 25;  // PyTorch's limit; ops state their own (CANN: mostly 8)

enum class Magic : uint32_t {
  kTensor = 0x7a3e5001,
  kScalar = 0x7a3e5002,
  kIntArray = 0x7a3e5003,
  kFloatArray = 0x7a3e5004,
  kBoolArray = 0x7a3e5005,
  kTensorList = 0x7a3e5006,
  kScalarList = 0x7a3e5007,
  kExecutor = 0x7a3e5008,
  kDead = 0xdeadbeef,
};

using Dims = SmallVector<int64_t, 8>;  // shapes and strides: no allocation up to 8 dims

// Number of elements of a shape; throws InvalidArgument on a negative dim or int64 overflow.
int64_t checked_numel(const Dims& dims, const char* what);
Dims contiguous_strides(const Dims& dims);
std::string dims_str(const Dims& d);  // "[2, 3]"

}  // namespace pacl

struct aclTensor {
  pacl::Magic magic = pacl::Magic::kTensor;
  pacl::Dims view;
  pacl::Dims strides;
  int64_t offset = 0;  // elements
  pacl::DType dtype = pacl::DType::kFloat;
  int32_t format = 2;  // aclFormat; ND
  pacl::Dims storage;
  void* data = nullptr;  // storage base address

  int64_t dim() const { return static_cast<int64_t>(view.size()); }
  int64_t numel() const;
  size_t elem_size() const { return pacl::dtype_size(dtype); }
  // Address of element [0, ..., 0].
  void* first() const { return static_cast<char*>(data) + offset * static_cast<int64_t>(elem_size()); }
  // Lowest and one-past-highest byte offsets from `data` the view touches ([0,0) when empty).
  void byte_extent(int64_t* lo, int64_t* hi) const;
  bool is_contiguous() const;
  std::string describe() const;  // "float32[2, 3] strides [3, 1] offset 0"
};

struct aclScalar {
  pacl::Magic magic = pacl::Magic::kScalar;
  pacl::DType dtype;
  alignas(16) unsigned char bytes[16] = {};

  double to_double() const;
  int64_t to_int64() const;
  bool to_bool() const;
  std::string describe() const;
};

struct aclIntArray {
  pacl::Magic magic = pacl::Magic::kIntArray;
  std::vector<int64_t> values;
};
struct aclFloatArray {
  pacl::Magic magic = pacl::Magic::kFloatArray;
  std::vector<float> values;
};
struct aclBoolArray {
  pacl::Magic magic = pacl::Magic::kBoolArray;
  std::vector<bool> values;
};
struct aclTensorList {
  pacl::Magic magic = pacl::Magic::kTensorList;
  std::vector<aclTensor*> items;  // owned
};
struct aclScalarList {
  pacl::Magic magic = pacl::Magic::kScalarList;
  std::vector<aclScalar*> items;  // owned
};

namespace pacl {

// Validates a tensor description as aclCreateTensor / aclInitTensor do and fills `t`.
// Throws InvalidArgument / NullArgument with a message naming the argument.
void init_tensor(aclTensor& t, const int64_t* viewDims, uint64_t viewDimsNum, int32_t dataType, const int64_t* stride,
                 int64_t offset, int32_t format, const int64_t* storageDims, uint64_t storageDimsNum, void* data);

// Live-object checks used at every API entry: throw NullArgument for nullptr and InvalidArgument for
// a pointer whose magic is wrong (destroyed, or not that kind of object).
const aclTensor& live(const aclTensor* t, const char* what);
const aclScalar& live(const aclScalar* s, const char* what);
const aclIntArray& live(const aclIntArray* a, const char* what);
const aclTensorList& live(const aclTensorList* l, const char* what);
const aclFloatArray& live(const aclFloatArray* a, const char* what);
const aclBoolArray& live(const aclBoolArray* a, const char* what);
const aclScalarList& live(const aclScalarList* l, const char* what);

}  // namespace pacl
