// extern "C" entry points of the aclnn meta API (aclnn/acl_meta.h).
#include <cstring>

#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"  // aclnnInit / aclnnFinalize: their declarations export them
#include "core/executor.h"
#include "core/registry_live.h"
#include "pacl/info.h"
#include "runtime/c_boundary.h"
#include "runtime/observer.h"

using pacl::LiveObjects;
using pacl::Magic;

namespace {

using pacl::nn_call;

template <typename T>
T* make_live(T* obj) {
  LiveObjects::get().add(obj, obj->magic);
  if (pacl::Observer* o = pacl::observer()) o->object_created(obj, pacl::magic_name(obj->magic), nullptr);
  return obj;
}

// Removes a live object from the registry, telling the checker; false if it was not live.
bool unregister(const void* obj, Magic kind, const char* api) {
  if (LiveObjects::get().kind_of(obj) != kind) return false;
  if (pacl::Observer* o = pacl::observer()) o->object_destroying(obj, pacl::magic_name(kind), api);
  return LiveObjects::get().remove(obj, kind);
}

// Destroys a live object of kind `kind`; nullptr is fine.
template <typename T>
aclnnStatus destroy(const char* api, const T* obj, Magic kind) {
  return nn_call(api, [&] {
    if (!obj) return;
    if (!unregister(obj, kind, api))
      pacl::invalid("{} is not a live {} (already destroyed, or never created)", static_cast<const void*>(obj),
                    pacl::magic_name(kind));
    delete obj;
  });
}

template <typename T>
void need_out(T* p, const char* what) {
  if (!p) throw pacl::NullArgument(fmt::format("argument '{}' is null", what));
}

void copy_out(const pacl::Dims& d, int64_t** out, uint64_t* num) {
  *out = new int64_t[d.empty() ? 1 : d.size()];
  if (!d.empty()) std::memcpy(*out, d.data(), d.size() * sizeof(int64_t));
  *num = d.size();
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  aclTensor* result = nullptr;
  nn_call("aclCreateTensor", [&] {
    auto t = std::make_unique<aclTensor>();
    pacl::init_tensor(*t, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                      tensorData);
    result = make_live(t.release());
  });
  return result;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                          uint64_t storageDimsNum, void* tensorDataAddr) {
  return nn_call("aclInitTensor", [&] {
    pacl::live(tensor, "tensor");
    aclTensor fresh;
    pacl::init_tensor(fresh, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                      tensorDataAddr);
    *tensor = std::move(fresh);
  });
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  aclScalar* result = nullptr;
  nn_call("aclCreateScalar", [&] {
    if (!value) throw pacl::NullArgument("argument 'value' is null");
    const auto dt = static_cast<pacl::DType>(dataType);
    const size_t n = pacl::dtype_size(dt);
    if (n == 0 || n > 16) pacl::invalid("dataType {} is not a scalar aclDataType", static_cast<int>(dataType));
    auto s = std::make_unique<aclScalar>();
    s->dtype = dt;
    std::memcpy(s->bytes, value, n);
    result = make_live(s.release());
  });
  return result;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  aclIntArray* result = nullptr;
  nn_call("aclCreateIntArray", [&] {
    if (!value && size > 0) throw pacl::NullArgument(fmt::format("value is null but size is {}", size));
    auto a = std::make_unique<aclIntArray>();
    a->values.assign(value, value + size);
    result = make_live(a.release());
  });
  return result;
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  aclFloatArray* result = nullptr;
  nn_call("aclCreateFloatArray", [&] {
    if (!value && size > 0) throw pacl::NullArgument(fmt::format("value is null but size is {}", size));
    auto a = std::make_unique<aclFloatArray>();
    a->values.assign(value, value + size);
    result = make_live(a.release());
  });
  return result;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  aclBoolArray* result = nullptr;
  nn_call("aclCreateBoolArray", [&] {
    if (!value && size > 0) throw pacl::NullArgument(fmt::format("value is null but size is {}", size));
    auto a = std::make_unique<aclBoolArray>();
    a->values.assign(value, value + size);
    result = make_live(a.release());
  });
  return result;
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  aclTensorList* result = nullptr;
  nn_call("aclCreateTensorList", [&] {
    if (!value && size > 0) throw pacl::NullArgument(fmt::format("value is null but size is {}", size));
    auto l = std::make_unique<aclTensorList>();
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i]) pacl::live(value[i], "value[i]");
      l->items.push_back(const_cast<aclTensor*>(value[i]));
    }
    result = make_live(l.release());
  });
  return result;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  aclScalarList* result = nullptr;
  nn_call("aclCreateScalarList", [&] {
    if (!value && size > 0) throw pacl::NullArgument(fmt::format("value is null but size is {}", size));
    auto l = std::make_unique<aclScalarList>();
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i]) pacl::live(value[i], "value[i]");
      l->items.push_back(const_cast<aclScalar*>(value[i]));
    }
    result = make_live(l.release());
  });
  return result;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) { return destroy("aclDestroyTensor", tensor, Magic::kTensor); }
aclnnStatus aclDestroyScalar(const aclScalar* scalar) { return destroy("aclDestroyScalar", scalar, Magic::kScalar); }
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return destroy("aclDestroyIntArray", array, Magic::kIntArray);
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return destroy("aclDestroyFloatArray", array, Magic::kFloatArray);
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return destroy("aclDestroyBoolArray", array, Magic::kBoolArray);
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return nn_call("aclDestroyTensorList", [&] {
    if (!array) return;
    if (!unregister(array, Magic::kTensorList, "aclDestroyTensorList"))
      pacl::invalid("{} is not a live aclTensorList (already destroyed, or never created)", static_cast<const void*>(array));
    for (aclTensor* t : array->items)
      if (t && unregister(t, Magic::kTensor, "aclDestroyTensorList")) delete t;
    delete array;
  });
}

aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  return nn_call("aclDestroyScalarList", [&] {
    if (!array) return;
    if (!unregister(array, Magic::kScalarList, "aclDestroyScalarList"))
      pacl::invalid("{} is not a live aclScalarList (already destroyed, or never created)", static_cast<const void*>(array));
    for (aclScalar* s : array->items)
      if (s && unregister(s, Magic::kScalar, "aclDestroyScalarList")) delete s;
    delete array;
  });
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  return nn_call("aclGetViewShape", [&] {
    need_out(viewDims, "viewDims");
    need_out(viewDimsNum, "viewDimsNum");
    copy_out(pacl::live(tensor, "tensor").view, viewDims, viewDimsNum);
  });
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  return nn_call("aclGetStorageShape", [&] {
    need_out(storageDims, "storageDims");
    need_out(storageDimsNum, "storageDimsNum");
    copy_out(pacl::live(tensor, "tensor").storage, storageDims, storageDimsNum);
  });
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  return nn_call("aclGetViewStrides", [&] {
    need_out(stridesValue, "stridesValue");
    need_out(stridesNum, "stridesNum");
    copy_out(pacl::live(tensor, "tensor").strides, stridesValue, stridesNum);
  });
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  return nn_call("aclGetViewOffset", [&] {
    need_out(offset, "offset");
    *offset = pacl::live(tensor, "tensor").offset;
  });
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  return nn_call("aclGetFormat", [&] {
    need_out(format, "format");
    *format = static_cast<aclFormat>(pacl::live(tensor, "tensor").format);
  });
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  return nn_call("aclGetDataType", [&] {
    need_out(dataType, "dataType");
    *dataType = static_cast<aclDataType>(pacl::live(tensor, "tensor").dtype);
  });
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return nn_call("aclGetIntArraySize", [&] {
    need_out(size, "size");
    *size = pacl::live(array, "array").values.size();
  });
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return nn_call("aclGetFloatArraySize", [&] {
    need_out(size, "size");
    if (!array) throw pacl::NullArgument("argument 'array' is null");
    if (LiveObjects::get().kind_of(array) != Magic::kFloatArray) pacl::invalid("array is not a live aclFloatArray");
    *size = array->values.size();
  });
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return nn_call("aclGetBoolArraySize", [&] {
    need_out(size, "size");
    if (!array) throw pacl::NullArgument("argument 'array' is null");
    if (LiveObjects::get().kind_of(array) != Magic::kBoolArray) pacl::invalid("array is not a live aclBoolArray");
    *size = array->values.size();
  });
}

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  return nn_call("aclGetTensorListSize", [&] {
    need_out(size, "size");
    *size = pacl::live(tensorList, "tensorList").items.size();
  });
}

aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  return nn_call("aclGetScalarListSize", [&] {
    need_out(size, "size");
    if (!scalarList) throw pacl::NullArgument("argument 'scalarList' is null");
    if (LiveObjects::get().kind_of(scalarList) != Magic::kScalarList)
      pacl::invalid("scalarList is not a live aclScalarList");
    *size = scalarList->items.size();
  });
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  return nn_call("aclSetRawTensorAddr", [&] { const_cast<aclTensor&>(pacl::live(tensor, "tensor")).data = addr; });
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  return nn_call("aclGetRawTensorAddr", [&] {
    need_out(addr, "addr");
    *addr = pacl::live(tensor, "tensor").data;
  });
}

aclnnStatus paclGetTensorView(const aclTensor* tensor, paclTensorView* view) {
  return nn_call("paclGetTensorView", [&] {
    need_out(view, "view");
    const aclTensor& t = pacl::live(tensor, "tensor");
    view->dataType = static_cast<int32_t>(t.dtype);
    view->format = t.format;
    view->viewDimsNum = t.view.size();
    view->viewDims = t.view.data();
    view->strides = t.strides.data();
    view->storageDimsNum = t.storage.size();
    view->storageDims = t.storage.data();
    view->offset = t.offset;
    view->data = t.data;
  });
}

aclnnStatus aclnnInit(const char*) { return 0; }
aclnnStatus aclnnFinalize() { return 0; }

}  // extern "C"
