/* pacl runner: the two phases hidden, executors cached, workspace managed, errors that explain.
 *
 *   pacl::OpRunner("Add", stream).AddInput(a).AddInput(b).AddScalar(1.0f).AddOutput(out).Run();
 *   pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a, b, pacl::Scalar(1.0f), out);
 *
 * By name (OpRunner): arguments are collected in the op's parameter order and checked against the
 * op's signature, taken at build time from the aclnnop/aclnn_*.h headers (RegisterOp adds more at
 * run time); aclnn<Op>GetWorkspaceSize and aclnn<Op> are found with dlsym in the loaded op
 * libraries and phase 1 is called through libffi. A wrong argument count or kind is reported
 * (Phase::kArguments), never called.
 * Typed (pacl::Run / Launch): the entry points are passed as functions, every argument is checked
 * against its parameter at compile time and phase 1 is called directly.
 *
 * Both paths: Run() = prepare (executor cache hit, or phase 1) -> workspace -> phase 2 ->
 * aclrtSynchronizeStream. Launch() returns after phase 2 without synchronizing; what the runner
 * owns for that call (a cached executor, runner-made copies of descriptors and values, a per-call
 * workspace) is kept alive until an event recorded after the op has completed. The runner never
 * destroys or frees what the caller owns: tensors, their device memory, raw handles.
 *
 * Values versus handles: tensors are read through the public API (aclGetViewShape, ...,
 * aclGetRawTensorAddr), so calls with tensors are cached. Scalars, arrays and lists are cached when
 * passed as values (pacl::Scalar, std::vector, pacl::IntArray, ...); passed as raw handles
 * (aclScalar*, aclIntArray*, aclTensorList*, ...) the call bypasses the executor cache.
 *
 * Uses only the public CANN API (acl/acl.h, aclnn/acl_meta.h), the C++ standard library, dlfcn and
 * libffi, so the same code runs on pacl and on an Ascend NPU with CANN. */
#ifndef PACL_RUNNER_H
#define PACL_RUNNER_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "pacl/executor_cache.h"
#include "pacl/runner_error.h"
#include "pacl/workspace.h"

namespace pacl {

namespace detail {
// An unsigned 64-bit value that does not fit int64_t.
template <class T>
constexpr bool AboveInt64([[maybe_unused]] T v) {
  if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) return v > static_cast<T>(INT64_MAX);
  else return false;
}
}  // namespace detail

// ---- values the runner can read (and key the executor cache on) -------------------------------

// A scalar value with its aclDataType. Implicit from C++ arithmetic types: float -> ACL_FLOAT,
// double -> ACL_DOUBLE, bool -> ACL_BOOL, integers -> the ACL integer type of the same width and
// signedness (int -> ACL_INT32, int64_t -> ACL_INT64).
class Scalar {
 public:
  Scalar() : Scalar(0.0f) {}
  Scalar(float v) { Set(&v, ACL_FLOAT, sizeof v); }   // NOLINT: implicit on purpose
  Scalar(double v) { Set(&v, ACL_DOUBLE, sizeof v); }  // NOLINT
  template <class T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) {  // NOLINT: exactly bool (a pointer must not become a bool scalar)
    Set(&v, ACL_BOOL, sizeof v);
  }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) {  // NOLINT
    Set(&v, IntType<T>(), sizeof v);
  }
  // `value` converted to `dtype` (float16 and bfloat16 round to nearest even; integers truncate).
  Scalar(double value, aclDataType dtype);
  // The first aclDataTypeSize(dtype) bytes at `bytes` (at most 8), as aclCreateScalar reads them.
  static Scalar FromBytes(const void* bytes, aclDataType dtype);

  aclDataType dtype() const { return dtype_; }
  const void* data() const { return bytes_; }
  size_t size() const { return size_; }
  double ToDouble() const;
  std::string ToString() const;  // "1.5(float32)"
  bool operator==(const Scalar& o) const;

 private:
  void Set(const void* p, aclDataType dtype, size_t n);
  template <class T>
  static constexpr aclDataType IntType() {
    if constexpr (sizeof(T) == 1) return std::is_signed_v<T> ? ACL_INT8 : ACL_UINT8;
    else if constexpr (sizeof(T) == 2) return std::is_signed_v<T> ? ACL_INT16 : ACL_UINT16;
    else if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? ACL_INT32 : ACL_UINT32;
    else return std::is_signed_v<T> ? ACL_INT64 : ACL_UINT64;
  }
  aclDataType dtype_ = ACL_FLOAT;
  uint32_t size_ = 4;
  alignas(8) unsigned char bytes_[8] = {};
};

class IntArray {
 public:
  IntArray() = default;
  IntArray(std::initializer_list<int64_t> v) : v_(v) {}
  IntArray(std::vector<int64_t> v) : v_(std::move(v)) {}  // NOLINT
  const std::vector<int64_t>& values() const { return v_; }

 private:
  std::vector<int64_t> v_;
};

class FloatArray {
 public:
  FloatArray() = default;
  FloatArray(std::initializer_list<float> v) : v_(v) {}
  FloatArray(std::vector<float> v) : v_(std::move(v)) {}  // NOLINT
  const std::vector<float>& values() const { return v_; }

 private:
  std::vector<float> v_;
};

class BoolArray {
 public:
  BoolArray() = default;
  BoolArray(std::initializer_list<bool> v) { Assign(v.begin(), v.size()); }
  BoolArray(const std::vector<bool>& v) {  // NOLINT
    n_ = v.size();
    v_.reset(new bool[n_ ? n_ : 1]);
    for (size_t k = 0; k < n_; ++k) v_[k] = v[k];
  }
  BoolArray(const BoolArray& o) { Assign(o.data(), o.size()); }
  BoolArray& operator=(const BoolArray& o) {
    if (this != &o) Assign(o.data(), o.size());
    return *this;
  }
  BoolArray(BoolArray&&) noexcept = default;
  BoolArray& operator=(BoolArray&&) noexcept = default;
  const bool* data() const { return v_.get(); }
  size_t size() const { return n_; }

 private:
  void Assign(const bool* p, size_t n) {
    n_ = n;
    v_.reset(new bool[n ? n : 1]);
    for (size_t k = 0; k < n; ++k) v_[k] = p[k];
  }
  std::unique_ptr<bool[]> v_;
  size_t n_ = 0;
};

// A tensor list given by its elements (the runner builds the aclTensorList from copies of their
// descriptors; the caller's tensors stay the caller's).
class TensorList {
 public:
  TensorList() = default;
  TensorList(std::initializer_list<const aclTensor*> v) : v_(v) {}
  TensorList(std::vector<const aclTensor*> v) : v_(std::move(v)) {}  // NOLINT
  const std::vector<const aclTensor*>& values() const { return v_; }

 private:
  std::vector<const aclTensor*> v_;
};

class ScalarList {
 public:
  ScalarList() = default;
  ScalarList(std::initializer_list<Scalar> v) : v_(v) {}
  ScalarList(std::vector<Scalar> v) : v_(std::move(v)) {}  // NOLINT
  const std::vector<Scalar>& values() const { return v_; }

 private:
  std::vector<Scalar> v_;
};

// ---- options and results -------------------------------------------------------------------------

struct RunOptions {
  aclrtStream stream = nullptr;  // nullptr: the current context's default stream
  WorkspaceStrategy workspace = WorkspaceStrategy::kDefault;
  bool cache = true;  // false: never use the executor cache for this call
};

struct RunInfo {
  bool cache_hit = false;     // the executor came from the cache (phase 1 skipped)
  bool cached = false;        // the call ran a cached (repeatable) executor
  uint64_t workspace_size = 0;
  // The kernel phase 1 chose (pacl's paclExecutorKernelName); empty on CANN.
  std::string kernel;
};

// ---- op table ------------------------------------------------------------------------------------

// Whether the runner knows the op's signature ("Add" or "aclnnAdd").
bool OpExists(const std::string& op);
// Every op of the signature table and every registered op, sorted.
std::vector<std::string> KnownOps();
// The parameter list of aclnn<Op>GetWorkspaceSize as the runner understood it; throws RunnerError
// (kResolve) for an unknown op.
std::string OpPrototype(const std::string& op);
// Adds (or replaces) an op's signature: `parameters` is the parameter list of its
// aclnn<Op>GetWorkspaceSize, ending with "uint64_t* workspaceSize, aclOpExecutor** executor".
// Throws RunnerError (kArguments) when a parameter type is not one the runner can pass.
void RegisterOp(const std::string& op, const std::string& parameters);
// dlopen()s a library to search for aclnn<Op> symbols (after the process's global scope).
void LoadOpLibrary(const std::string& path);

// ---- by name -------------------------------------------------------------------------------------

class OpRunner {
 public:
  explicit OpRunner(std::string op, aclrtStream stream = nullptr);
  ~OpRunner();
  OpRunner(OpRunner&&) noexcept;
  OpRunner& operator=(OpRunner&&) noexcept;
  OpRunner(const OpRunner&) = delete;
  OpRunner& operator=(const OpRunner&) = delete;

  // Tensors (nullptr for an absent optional tensor). Input or output only shapes the argument
  // summary; any tensor parameter takes either (an in-place selfRef is commonly added as input).
  OpRunner& AddInput(const aclTensor* tensor);
  OpRunner& AddOutput(const aclTensor* tensor);
  OpRunner& AddTensorList(std::vector<const aclTensor*> tensors, bool output = false);
  OpRunner& AddScalar(const Scalar& value);
  OpRunner& AddScalarList(std::vector<Scalar> values);
  OpRunner& AddIntArray(std::vector<int64_t> values);
  OpRunner& AddFloatArray(std::vector<float> values);
  OpRunner& AddBoolArray(const std::vector<bool>& values);
  // Raw handles: passed as they are; the call bypasses the executor cache.
  template <class T, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, aclScalar>, int> = 0>
  OpRunner& AddScalar(T* raw) { return AddRaw(0, raw); }
  OpRunner& AddScalar(std::nullptr_t) { return AddRaw(0, nullptr); }
  template <class T, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, aclTensorList>, int> = 0>
  OpRunner& AddTensorList(T* raw) { return AddRaw(1, raw); }
  template <class T, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, aclScalarList>, int> = 0>
  OpRunner& AddScalarList(T* raw) { return AddRaw(2, raw); }
  template <class T, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, aclIntArray>, int> = 0>
  OpRunner& AddIntArray(T* raw) { return AddRaw(3, raw); }
  template <class T, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, aclFloatArray>, int> = 0>
  OpRunner& AddFloatArray(T* raw) { return AddRaw(4, raw); }
  template <class T, std::enable_if_t<std::is_same_v<std::remove_const_t<T>, aclBoolArray>, int> = 0>
  OpRunner& AddBoolArray(T* raw) { return AddRaw(5, raw); }
  // Plain attributes: integers (any integer parameter type; range-checked), floating point (float or
  // double parameters), bool, aclDataType, strings (const char* parameters).
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  OpRunner& AddAttr(T value) {
    return AddIntAttr(static_cast<int64_t>(value), detail::AboveInt64(value));
  }
  OpRunner& AddAttr(double value);
  OpRunner& AddAttr(float value) { return AddAttr(static_cast<double>(value)); }
  OpRunner& AddAttr(bool value);
  OpRunner& AddAttr(aclDataType value);
  OpRunner& AddAttr(const char* value);
  OpRunner& AddAttr(const std::string& value) { return AddAttr(value.c_str()); }

  OpRunner& Stream(aclrtStream stream);
  OpRunner& Workspace(WorkspaceStrategy strategy);
  OpRunner& Cache(bool enabled);
  OpRunner& ClearArgs();  // keep op, stream and options; collect new arguments

  RunInfo Run();  // throws RunnerError
  RunInfo Launch();
  Status TryRun(RunInfo* info = nullptr) noexcept;
  Status TryLaunch(RunInfo* info = nullptr) noexcept;

 private:
  OpRunner& AddRaw(int what, const void* raw);
  OpRunner& AddIntAttr(int64_t value, bool too_big);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- typed path: implementation details ----------------------------------------------------------

namespace detail {

using AnyFn = void (*)();
using Phase2Fn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

enum class ArgKind : uint8_t {
  kTensor,      // ptr: const aclTensor* (may be null)
  kTensorList,  // ptr: const aclTensor* const*, count
  kScalar,      // scalar
  kScalarList,  // ptr: const Scalar*, count
  kIntArray,    // ptr: const int64_t*, count
  kFloatArray,  // ptr: const float*, count
  kBoolArray,   // ptr: const bool*, count
  kInt,         // i (u64: the value is above INT64_MAX and was stored as its two's complement)
  kDouble,      // d
  kBool,        // i
  kDType,       // i
  kString,      // ptr: const char* (may be null)
  kRawTensorList,  // ptr: the handle as given (may be null); bypasses the cache
  kRawScalar,
  kRawScalarList,
  kRawIntArray,
  kRawFloatArray,
  kRawBoolArray,
};

struct ArgRef {
  ArgKind kind = ArgKind::kInt;
  bool output = false;  // tensors and lists: passed as an output (summary only)
  bool u64 = false;     // kInt: unsigned value above INT64_MAX
  const void* ptr = nullptr;
  size_t count = 0;
  int64_t i = 0;
  double d = 0;
  Scalar scalar;
};

// One phase-1 argument as materialized for the call (a runner-owned handle, the caller's tensor,
// or a plain value).
struct MatValue {
  void* ptr = nullptr;
  int64_t i = 0;
  double d = 0;
};

struct CallSpec;
using Phase1Invoker = aclnnStatus (*)(const CallSpec& spec, const MatValue* values, uint64_t* workspace_size,
                                      aclOpExecutor** executor);
struct CallSpec {
  AnyFn phase1 = nullptr;
  Phase2Fn phase2 = nullptr;
  Phase1Invoker invoke = nullptr;
  const void* op = nullptr;  // the by-name op record; nullptr on the typed path
  RunOptions options;
  bool synchronize = true;
};

Status Execute(const CallSpec& spec, const ArgRef* args, size_t count, RunInfo* info) noexcept;
[[noreturn]] void Throw(const Status& status);

template <class P, class Obj>
constexpr bool kPtrTo = std::is_pointer_v<P> && std::is_same_v<std::remove_cv_t<std::remove_pointer_t<P>>, Obj>;
template <class P>
constexpr bool kIsOutput = std::is_pointer_v<P> && !std::is_const_v<std::remove_pointer_t<P>>;

template <class A, class E>
constexpr bool kVectorOf = std::is_same_v<A, std::vector<E>>;

template <class P, class A, class Enable = void>
struct Adapt {
  static constexpr bool ok = false;
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclTensor> && std::is_convertible_v<A, P>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kTensor;
    r.output = kIsOutput<P>;
    r.ptr = static_cast<P>(a);
    return r;
  }
};

template <class P, class A, ArgKind kRaw>
struct AdaptRaw {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = kRaw;
    r.output = kIsOutput<P>;
    r.ptr = static_cast<P>(a);
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclScalar> && std::is_convertible_v<A, P>>>
    : AdaptRaw<P, A, ArgKind::kRawScalar> {};
template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclTensorList> && std::is_convertible_v<A, P>>>
    : AdaptRaw<P, A, ArgKind::kRawTensorList> {};
template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclScalarList> && std::is_convertible_v<A, P>>>
    : AdaptRaw<P, A, ArgKind::kRawScalarList> {};
template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclIntArray> && std::is_convertible_v<A, P>>>
    : AdaptRaw<P, A, ArgKind::kRawIntArray> {};
template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclFloatArray> && std::is_convertible_v<A, P>>>
    : AdaptRaw<P, A, ArgKind::kRawFloatArray> {};
template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclBoolArray> && std::is_convertible_v<A, P>>>
    : AdaptRaw<P, A, ArgKind::kRawBoolArray> {};

template <class P, class A>
struct Adapt<P, A,
             std::enable_if_t<kPtrTo<P, aclScalar> && !std::is_convertible_v<A, P> && std::is_convertible_v<A, Scalar>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kScalar;
    r.scalar = Scalar(a);
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclIntArray> && (std::is_same_v<A, IntArray> || kVectorOf<A, int64_t>)>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    const std::vector<int64_t>* v;
    if constexpr (std::is_same_v<A, IntArray>) v = &a.values();
    else v = &a;
    ArgRef r;
    r.kind = ArgKind::kIntArray;
    r.ptr = v->data();
    r.count = v->size();
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclFloatArray> && (std::is_same_v<A, FloatArray> || kVectorOf<A, float>)>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    const std::vector<float>* v;
    if constexpr (std::is_same_v<A, FloatArray>) v = &a.values();
    else v = &a;
    ArgRef r;
    r.kind = ArgKind::kFloatArray;
    r.ptr = v->data();
    r.count = v->size();
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclBoolArray> && std::is_same_v<A, BoolArray>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kBoolArray;
    r.ptr = a.data();
    r.count = a.size();
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A,
             std::enable_if_t<kPtrTo<P, aclTensorList> && (std::is_same_v<A, TensorList> || kVectorOf<A, const aclTensor*> ||
                                                           kVectorOf<A, aclTensor*>)>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kTensorList;
    r.output = kIsOutput<P>;
    if constexpr (std::is_same_v<A, TensorList>) {
      r.ptr = a.values().data();
      r.count = a.values().size();
    } else {
      const aclTensor* const* p = a.data();
      r.ptr = p;
      r.count = a.size();
    }
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<kPtrTo<P, aclScalarList> && (std::is_same_v<A, ScalarList> || kVectorOf<A, Scalar>)>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    const std::vector<Scalar>* v;
    if constexpr (std::is_same_v<A, ScalarList>) v = &a.values();
    else v = &a;
    ArgRef r;
    r.kind = ArgKind::kScalarList;
    r.ptr = v->data();
    r.count = v->size();
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A,
             std::enable_if_t<std::is_integral_v<P> && !std::is_same_v<P, bool> && std::is_integral_v<A> &&
                              !std::is_same_v<A, bool>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kInt;
    r.i = static_cast<int64_t>(static_cast<P>(a));
    r.u64 = AboveInt64(static_cast<P>(a));
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<std::is_floating_point_v<P> && std::is_arithmetic_v<A> && !std::is_same_v<A, bool>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kDouble;
    r.d = static_cast<double>(static_cast<P>(a));
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<std::is_same_v<P, bool> && std::is_same_v<A, bool>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kBool;
    r.i = a ? 1 : 0;
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A, std::enable_if_t<std::is_same_v<P, aclDataType> && std::is_same_v<A, aclDataType>>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kDType;
    r.i = static_cast<int64_t>(a);
    return r;
  }
};

template <class P, class A>
struct Adapt<P, A,
             std::enable_if_t<kPtrTo<P, char> && (std::is_convertible_v<A, const char*> || std::is_same_v<A, std::string>)>> {
  static constexpr bool ok = true;
  static ArgRef Make(const A& a) {
    ArgRef r;
    r.kind = ArgKind::kString;
    if constexpr (std::is_same_v<A, std::string>) r.ptr = a.c_str();
    else r.ptr = static_cast<const char*>(a);
    return r;
  }
};

template <class T>
T FromMat(const MatValue& v) {
  if constexpr (std::is_pointer_v<T>) return static_cast<T>(v.ptr);
  else if constexpr (std::is_same_v<T, bool>) return v.i != 0;
  else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) return static_cast<T>(v.i);
  else return static_cast<T>(v.d);
}

template <class Fn, class Params, size_t... I>
aclnnStatus InvokeTyped(const CallSpec& spec, [[maybe_unused]] const MatValue* v, uint64_t* ws, aclOpExecutor** ex,
                        std::index_sequence<I...>) {
  const auto fn = reinterpret_cast<Fn>(spec.phase1);
  return fn(FromMat<std::tuple_element_t<I, Params>>(v[I])..., ws, ex);
}

template <class... P>
aclnnStatus TypedPhase1(const CallSpec& spec, const MatValue* v, uint64_t* ws, aclOpExecutor** ex) {
  return InvokeTyped<aclnnStatus (*)(P...), std::tuple<P...>>(spec, v, ws, ex,
                                                              std::make_index_sequence<sizeof...(P) - 2>{});
}

template <class Params, class... A, size_t... I>
Status ExecuteTyped(CallSpec& spec, RunInfo* info, std::index_sequence<I...>, const A&... args) noexcept {
  static_assert((Adapt<std::tuple_element_t<I, Params>, std::decay_t<A>>::ok && ...),
                "pacl::Run: an argument does not fit the phase-1 parameter at its position (tensors: aclTensor*; "
                "scalars: pacl::Scalar or a C++ number; arrays: pacl::IntArray/FloatArray/BoolArray or std::vector; "
                "lists: pacl::TensorList/ScalarList or std::vector; integers, floating point, bool, aclDataType, "
                "strings; raw aclScalar*/aclIntArray*/... handles are passed as they are)");
  const std::array<ArgRef, sizeof...(A)> refs{Adapt<std::tuple_element_t<I, Params>, std::decay_t<A>>::Make(args)...};
  return Execute(spec, refs.data(), refs.size(), info);
}

template <class... P, class... A>
Status RunTyped(const RunOptions& options, bool synchronize, aclnnStatus (*phase1)(P...), Phase2Fn phase2,
                RunInfo* info, const A&... args) noexcept {
  using Params = std::tuple<P...>;
  static_assert(sizeof...(P) >= 2, "pacl::Run: phase 1 must end with (uint64_t* workspaceSize, aclOpExecutor** executor)");
  if constexpr (sizeof...(P) >= 2) {
    static_assert(std::is_same_v<std::tuple_element_t<sizeof...(P) - 2, Params>, uint64_t*> &&
                      std::is_same_v<std::tuple_element_t<sizeof...(P) - 1, Params>, aclOpExecutor**>,
                  "pacl::Run: phase 1 must end with (uint64_t* workspaceSize, aclOpExecutor** executor)");
    static_assert(sizeof...(A) + 2 == sizeof...(P),
                  "pacl::Run: pass exactly one argument per phase-1 parameter before workspaceSize and executor");
    if constexpr (sizeof...(A) + 2 == sizeof...(P)) {
      CallSpec spec;
      spec.phase1 = reinterpret_cast<AnyFn>(phase1);
      spec.phase2 = phase2;
      spec.invoke = &TypedPhase1<P...>;
      spec.options = options;
      spec.synchronize = synchronize;
      return ExecuteTyped<Params>(spec, info, std::index_sequence_for<A...>{}, args...);
    }
  }
  return Status();
}

}  // namespace detail

// ---- typed path ----------------------------------------------------------------------------------

// Runs phase 1 (or the cached executor), phase 2 and synchronizes the stream. Every argument is
// checked against its phase-1 parameter at compile time. Throws RunnerError.
template <class... P, class... A>
RunInfo Run(const RunOptions& options, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) {
  RunInfo info;
  const Status s = detail::RunTyped(options, true, phase1, phase2, &info, args...);
  if (!s.ok()) detail::Throw(s);
  return info;
}
template <class... P, class... A>
RunInfo Run(aclrtStream stream, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) {
  RunOptions o;
  o.stream = stream;
  return Run(o, phase1, phase2, args...);
}
// As Run, without synchronizing: returns once phase 2 has enqueued the op.
template <class... P, class... A>
RunInfo Launch(const RunOptions& options, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) {
  RunInfo info;
  const Status s = detail::RunTyped(options, false, phase1, phase2, &info, args...);
  if (!s.ok()) detail::Throw(s);
  return info;
}
template <class... P, class... A>
RunInfo Launch(aclrtStream stream, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) {
  RunOptions o;
  o.stream = stream;
  return Launch(o, phase1, phase2, args...);
}
// No-exception forms.
template <class... P, class... A>
Status TryRun(const RunOptions& options, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) noexcept {
  return detail::RunTyped(options, true, phase1, phase2, nullptr, args...);
}
template <class... P, class... A>
Status TryRun(aclrtStream stream, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) noexcept {
  RunOptions o;
  o.stream = stream;
  return detail::RunTyped(o, true, phase1, phase2, nullptr, args...);
}
template <class... P, class... A>
Status TryLaunch(const RunOptions& options, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2,
                 const A&... args) noexcept {
  return detail::RunTyped(options, false, phase1, phase2, nullptr, args...);
}
template <class... P, class... A>
Status TryLaunch(aclrtStream stream, aclnnStatus (*phase1)(P...), detail::Phase2Fn phase2, const A&... args) noexcept {
  RunOptions o;
  o.stream = stream;
  return detail::RunTyped(o, false, phase1, phase2, nullptr, args...);
}

}  // namespace pacl

#endif  // PACL_RUNNER_H
