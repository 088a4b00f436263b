#include "core/meta.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "core/registry_live.h"
#include "runtime/status.h"

namespace pacl {

__extension__ typedef __int128 wide_int;

LiveObjects& LiveObjects::get() {
  static LiveObjects* l = new LiveObjects();
  return *l;
}

Magic LiveObjects::find(const void* p) const {
  if (!p) return Magic::kDead;
  for (size_t i = home(p);; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.p == p) return s.kind;
    if (!s.p) return Magic::kDead;
  }
}

void LiveObjects::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  --shift_;
  for (const Slot& s : old) {
    if (!s.p) continue;
    size_t i = home(s.p);
    while (slots_[i].p) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

void LiveObjects::add(const void* p, Magic kind) {
  if (!p) return;
  std::lock_guard<std::mutex> lock(mu_);
  if ((size_ + 1) * 2 > slots_.size()) grow();  // load factor <= 1/2: short probe runs
  size_t i = home(p);
  while (slots_[i].p && slots_[i].p != p) i = (i + 1) & mask_;
  if (!slots_[i].p) ++size_;
  slots_[i] = Slot{p, kind};
}

bool LiveObjects::remove(const void* p, Magic kind) {
  if (!p) return false;
  std::lock_guard<std::mutex> lock(mu_);
  size_t i = home(p);
  while (slots_[i].p != p) {
    if (!slots_[i].p) return false;
    i = (i + 1) & mask_;
  }
  if (slots_[i].kind != kind) return false;
  // Backward-shift deletion: pull later members of the probe run into the hole when the hole lies
  // on their path from their home slot.
  for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
    if (!slots_[j].p) break;
    const size_t h = home(slots_[j].p);
    const bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
    if (movable) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = Slot{};
  --size_;
  return true;
}

Magic LiveObjects::kind_of(const void* p) const {
  std::lock_guard<std::mutex> lock(mu_);
  return find(p);
}

size_t LiveObjects::count(Magic kind) const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<size_t>(std::count_if(slots_.begin(), slots_.end(), [&](const Slot& s) { return s.p && s.kind == kind; }));
}

const char* magic_name(Magic m) {
  switch (m) {
    case Magic::kTensor: return "aclTensor";
    case Magic::kScalar: return "aclScalar";
    case Magic::kIntArray: return "aclIntArray";
    case Magic::kFloatArray: return "aclFloatArray";
    case Magic::kBoolArray: return "aclBoolArray";
    case Magic::kTensorList: return "aclTensorList";
    case Magic::kScalarList: return "aclScalarList";
    case Magic::kExecutor: return "aclOpExecutor";
    case Magic::kDead: return "destroyed object";
  }
  return "?";
}

int64_t checked_numel(const Dims& dims, const char* what) {
  int64_t n = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) invalid("{} {} has a negative dimension {} at index {}", what, dims_str(dims), dims[i], i);
    if (dims[i] != 0 && n > std::numeric_limits<int64_t>::max() / dims[i])
      invalid("{} {} has more elements than int64 can count", what, dims_str(dims));
    n *= dims[i];
  }
  return n;
}

Dims contiguous_strides(const Dims& dims) {
  Dims s(dims.size());
  int64_t acc = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    s[i] = acc;
    acc *= std::max<int64_t>(dims[i], 1);
  }
  return s;
}

std::string dims_str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(d[i]);
  }
  return s + "]";
}

template <typename T>
static const T& live_impl(const T* p, Magic kind, const char* what) {
  if (!p) throw NullArgument(fmt::format("argument '{}' ({}) is null", what, magic_name(kind)));
  Magic m = LiveObjects::get().kind_of(p);
  if (m != kind) {
    if (m == Magic::kDead)
      invalid("argument '{}' ({}) {} is not live: it was destroyed, or never created", what, magic_name(kind),
              static_cast<const void*>(p));
    invalid("argument '{}' should be an {} but {} is an {}", what, magic_name(kind), static_cast<const void*>(p),
            magic_name(m));
  }
  return *p;
}

const aclTensor& live(const aclTensor* t, const char* what) { return live_impl(t, Magic::kTensor, what); }
const aclScalar& live(const aclScalar* s, const char* what) { return live_impl(s, Magic::kScalar, what); }
const aclIntArray& live(const aclIntArray* a, const char* what) { return live_impl(a, Magic::kIntArray, what); }
const aclTensorList& live(const aclTensorList* l, const char* what) { return live_impl(l, Magic::kTensorList, what); }
const aclFloatArray& live(const aclFloatArray* a, const char* what) { return live_impl(a, Magic::kFloatArray, what); }
const aclBoolArray& live(const aclBoolArray* a, const char* what) { return live_impl(a, Magic::kBoolArray, what); }
const aclScalarList& live(const aclScalarList* l, const char* what) { return live_impl(l, Magic::kScalarList, what); }

void init_tensor(aclTensor& t, const int64_t* viewDims, uint64_t viewDimsNum, int32_t dataType, const int64_t* stride,
                 int64_t offset, int32_t format, const int64_t* storageDims, uint64_t storageDimsNum, void* data) {
  if (!viewDims && viewDimsNum > 0) throw NullArgument(fmt::format("viewDims is null but viewDimsNum is {}", viewDimsNum));
  if (!storageDims && storageDimsNum > 0)
    throw NullArgument(fmt::format("storageDims is null but storageDimsNum is {}", storageDimsNum));
  if (viewDimsNum > static_cast<uint64_t>(kMaxDims)) invalid("viewDimsNum {} exceeds the limit of {} dims", viewDimsNum, kMaxDims);
  if (storageDimsNum > static_cast<uint64_t>(kMaxDims))
    invalid("storageDimsNum {} exceeds the limit of {} dims", storageDimsNum, kMaxDims);
  const DType dt = static_cast<DType>(dataType);
  if (!dtype_valid(dt)) invalid("dataType {} is not a storable aclDataType", dataType);
  const int32_t formats[] = {-1, 0, 1, 2, 3, 4, 12, 16, 27, 29, 30, 32, 33, 35, 47, 50, 51, 52, 53, 54};
  if (std::find(std::begin(formats), std::end(formats), format) == std::end(formats))
    invalid("format {} is not an aclFormat", format);
  if (offset < 0) invalid("offset {} is negative", offset);
  Dims view(viewDims, viewDims + viewDimsNum);
  Dims storage(storageDims, storageDims + storageDimsNum);
  const int64_t view_numel = checked_numel(view, "viewDims");
  const int64_t storage_numel = checked_numel(storage, "storageDims");
  Dims strides = stride ? Dims(stride, stride + viewDimsNum) : contiguous_strides(view);
  for (size_t i = 0; i < strides.size(); ++i)
    if (strides[i] < 0) invalid("stride {} has a negative value {} at index {}", dims_str(strides), strides[i], i);
  // The view must stay inside the storage: element offsets range over
  // [offset + sum(min(0,(d-1)*s)), offset + sum(max(0,(d-1)*s))].
  // storageDimsNum == 0 with a non-scalar view means "storage not described": only the bounds of
  // the device allocation (checked at phase 2) apply then.
  const bool storage_known = storageDimsNum > 0 || view.empty();
  if (view_numel > 0 && storage_known) {
    wide_int lo = offset, hi = offset;
    for (size_t i = 0; i < view.size(); ++i) {
      const wide_int span = static_cast<wide_int>(view[i] - 1) * strides[i];
      (span < 0 ? lo : hi) += span;
    }
    if (lo < 0)
      invalid("the view {} with strides {} and offset {} reaches before the start of its storage", dims_str(view),
              dims_str(strides), offset);
    if (hi >= storage_numel)
      invalid("the view {} with strides {} and offset {} reaches element {}, outside its storage {} of {} elements",
              dims_str(view), dims_str(strides), offset, static_cast<int64_t>(hi), dims_str(storage), storage_numel);
  }
  t.view = std::move(view);
  t.strides = std::move(strides);
  t.offset = offset;
  t.dtype = dt;
  t.format = format;
  t.storage = std::move(storage);
  t.data = data;
}

}  // namespace pacl

int64_t aclTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : view) n *= d;
  return n;
}

void aclTensor::byte_extent(int64_t* lo, int64_t* hi) const {
  if (numel() == 0) {
    *lo = *hi = 0;
    return;
  }
  int64_t a = offset, b = offset;
  for (size_t i = 0; i < view.size(); ++i) {
    const int64_t span = (view[i] - 1) * strides[i];
    (span < 0 ? a : b) += span;
  }
  const auto es = static_cast<int64_t>(elem_size());
  *lo = a * es;
  *hi = (b + 1) * es;
}

bool aclTensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = view.size(); i-- > 0;) {
    if (view[i] != 1 && strides[i] != expected) return false;
    expected *= view[i];
  }
  return true;
}

std::string aclTensor::describe() const {
  std::string s = fmt::format("{}{}", pacl::dtype_name(dtype), pacl::dims_str(view));
  if (!is_contiguous()) s += fmt::format(" strides {}", pacl::dims_str(strides));
  if (offset) s += fmt::format(" offset {}", offset);
  return s;
}

double aclScalar::to_double() const {
  using pacl::DType;
  switch (dtype) {
    case DType::kFloat: { float v; std::memcpy(&v, bytes, 4); return v; }
    case DType::kDouble: { double v; std::memcpy(&v, bytes, 8); return v; }
    case DType::kFloat16: { uint16_t v; std::memcpy(&v, bytes, 2); return pacl::half_to_float(v); }
    case DType::kBFloat16: { uint16_t v; std::memcpy(&v, bytes, 2); return pacl::bf16_to_float(v); }
    case DType::kUInt64: { uint64_t v; std::memcpy(&v, bytes, 8); return static_cast<double>(v); }
    default: return static_cast<double>(to_int64());
  }
}

int64_t aclScalar::to_int64() const {
  using pacl::DType;
  switch (dtype) {
    case DType::kBool: return bytes[0] != 0;
    case DType::kInt8: { int8_t v; std::memcpy(&v, bytes, 1); return v; }
    case DType::kUInt8: return bytes[0];
    case DType::kInt16: { int16_t v; std::memcpy(&v, bytes, 2); return v; }
    case DType::kUInt16: { uint16_t v; std::memcpy(&v, bytes, 2); return v; }
    case DType::kInt32: { int32_t v; std::memcpy(&v, bytes, 4); return v; }
    case DType::kUInt32: { uint32_t v; std::memcpy(&v, bytes, 4); return v; }
    case DType::kInt64: { int64_t v; std::memcpy(&v, bytes, 8); return v; }
    case DType::kUInt64: { uint64_t v; std::memcpy(&v, bytes, 8); return static_cast<int64_t>(v); }
    default: {
      const double d = to_double();
      if (!(d == d)) return 0;
      if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
      if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
      return static_cast<int64_t>(d);
    }
  }
}

bool aclScalar::to_bool() const {
  if (pacl::is_floating(dtype)) return to_double() != 0.0;
  return to_int64() != 0;
}

std::string aclScalar::describe() const {
  if (pacl::is_floating(dtype)) return fmt::format("{}({})", pacl::dtype_name(dtype), to_double());
  return fmt::format("{}({})", pacl::dtype_name(dtype), to_int64());
}
