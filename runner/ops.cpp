// The op table: signatures generated at build time from the aclnnop headers (op_signatures.inc),
// plus ops registered at run time; entry points found with dlsym; phase 1 called through libffi.
#include <dlfcn.h>
#include <ffi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <shared_mutex>
#include <unordered_map>

#include "internal.h"

namespace pacl::rn {

struct OpRecord {
  std::string name, header, prototype;
  std::vector<Param> params;  // without the trailing workspaceSize and executor
  std::vector<std::string> names;
  std::string parse_error;
  std::mutex mu;
  std::atomic<bool> resolved{false};
  AnyFn phase1 = nullptr;
  Phase2Fn phase2 = nullptr;
  ffi_cif cif{};
  std::vector<ffi_type*> types;
};

namespace {

struct TableRow {
  const char* name;
  const char* header;
  const char* params;
};
constexpr TableRow kTable[] = {
#include "op_signatures.inc"
};

std::unique_ptr<OpRecord> MakeRecord(const std::string& name, const std::string& header, const std::string& params) {
  auto r = std::make_unique<OpRecord>();
  r->name = name;
  r->header = header;
  r->prototype = params;
  if (!ParseParameters(params, &r->params, &r->parse_error)) r->params.clear();
  for (const Param& p : r->params) r->names.push_back(p.name);
  return r;
}

struct Table {
  std::vector<std::unique_ptr<OpRecord>> records;
  std::unordered_map<std::string, OpRecord*> by_name;
  Table() {
    for (const TableRow& row : kTable) {
      records.push_back(MakeRecord(row.name, row.header, row.params));
      by_name.emplace(row.name, records.back().get());
    }
  }
};
const Table& StaticTable() {
  static const Table* t = new Table;  // never destroyed: records may be used during exit
  return *t;
}

struct Registered {
  std::shared_mutex mu;
  std::map<std::string, OpRecord*> by_name;
  std::vector<std::unique_ptr<OpRecord>> all;  // replaced records stay alive (callers may hold them)
  std::atomic<bool> any{false};
};
Registered& Reg() {
  static Registered* r = new Registered;
  return *r;
}

struct Libraries {
  std::mutex mu;
  std::vector<void*> handles;
  std::vector<std::string> names;
  bool defaults_tried = false;
};
Libraries& Libs() {
  static Libraries* l = new Libraries;
  return *l;
}

std::string StripPrefix(const std::string& name) {
  if (name.size() > 5 && name.compare(0, 5, "aclnn") == 0 && std::isupper(static_cast<unsigned char>(name[5])))
    return name.substr(5);
  return name;
}

AnyFn ToFn(void* p) {
  AnyFn f;
  static_assert(sizeof f == sizeof p, "function and object pointers differ in size");
  std::memcpy(&f, &p, sizeof f);
  return f;
}

void* Lookup(const std::vector<void*>& handles, const std::string& sym) {
  for (void* h : handles)
    if (void* p = dlsym(h, sym.c_str())) return p;
  return nullptr;
}

// dlsym in the process's global scope, then in LoadOpLibrary libraries, then in CANN's op library
// names and PACL_RUNNER_OP_LIBS (dlopen'ed once, on the first symbol not found elsewhere).
void* FindSymbol(const std::string& sym, std::string* searched) {
  dlerror();
  if (void* p = dlsym(RTLD_DEFAULT, sym.c_str())) return p;
  Libraries& libs = Libs();
  std::lock_guard<std::mutex> lock(libs.mu);
  if (void* p = Lookup(libs.handles, sym)) return p;
  if (!libs.defaults_tried) {
    libs.defaults_tried = true;
    std::vector<std::string> names;
    if (const char* env = std::getenv("PACL_RUNNER_OP_LIBS")) {
      std::string s = env;
      size_t start = 0;
      while (start <= s.size()) {
        const size_t end = std::min(s.find(':', start), s.size());
        if (end > start) names.push_back(s.substr(start, end - start));
        start = end + 1;
      }
    }
    for (const char* n : {"libopapi.so", "libopapi_math.so", "libopapi_nn.so", "libopapi_cv.so",
                          "libopapi_transformer.so", "libcust_opapi.so"})
      names.push_back(n);
    for (const std::string& n : names) {
      if (void* h = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        libs.handles.push_back(h);
        libs.names.push_back(n);
      }
    }
    if (void* p = Lookup(libs.handles, sym)) return p;
  }
  *searched = "the process";
  for (const std::string& n : libs.names) *searched += ", " + n;
  return nullptr;
}

ffi_type* FfiType(const Param& p) {
  switch (p.type) {
    case PType::kInt:
      switch (p.bits) {
        case 8: return p.is_signed ? &ffi_type_sint8 : &ffi_type_uint8;
        case 16: return p.is_signed ? &ffi_type_sint16 : &ffi_type_uint16;
        case 32: return p.is_signed ? &ffi_type_sint32 : &ffi_type_uint32;
        default: return p.is_signed ? &ffi_type_sint64 : &ffi_type_uint64;
      }
    case PType::kFloat: return p.bits == 32 ? &ffi_type_float : &ffi_type_double;
    case PType::kBool: return &ffi_type_uint8;
    case PType::kDType: return &ffi_type_sint32;
    default: return &ffi_type_pointer;
  }
}

std::string Trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool IntType(const std::string& base, int* bits, bool* is_signed) {
  static const std::map<std::string, std::pair<int, bool>> kInts = {
      {"int8_t", {8, true}},       {"uint8_t", {8, false}},     {"int16_t", {16, true}},
      {"uint16_t", {16, false}},   {"int32_t", {32, true}},     {"uint32_t", {32, false}},
      {"int64_t", {64, true}},     {"uint64_t", {64, false}},   {"int", {32, true}},
      {"signed", {32, true}},      {"signed int", {32, true}},  {"unsigned", {32, false}},
      {"unsigned int", {32, false}}, {"short", {16, true}},     {"unsigned short", {16, false}},
      {"long", {64, true}},        {"unsigned long", {64, false}}, {"long long", {64, true}},
      {"unsigned long long", {64, false}}, {"size_t", {64, false}}, {"char", {8, true}},
      {"signed char", {8, true}},  {"unsigned char", {8, false}},
  };
  auto it = kInts.find(base);
  if (it == kInts.end()) return false;
  *bits = it->second.first;
  *is_signed = it->second.second;
  return true;
}

const char* BuilderHint(PType t) {
  switch (t) {
    case PType::kTensor: return "AddInput/AddOutput";
    case PType::kTensorList: return "AddTensorList";
    case PType::kScalar: return "AddScalar";
    case PType::kScalarList: return "AddScalarList";
    case PType::kIntArray: return "AddIntArray";
    case PType::kFloatArray: return "AddFloatArray";
    case PType::kBoolArray: return "AddBoolArray";
    case PType::kInt: return "AddAttr(<integer>)";
    case PType::kFloat: return "AddAttr(<floating point>)";
    case PType::kBool: return "AddAttr(true/false)";
    case PType::kDType: return "AddAttr(<aclDataType>)";
    case PType::kString: return "AddAttr(\"<text>\")";
  }
  return "?";
}

const char* GivenAs(ArgKind k) {
  switch (k) {
    case ArgKind::kTensor: return "a tensor (AddInput/AddOutput)";
    case ArgKind::kTensorList: case ArgKind::kRawTensorList: return "a tensor list (AddTensorList)";
    case ArgKind::kScalar: case ArgKind::kRawScalar: return "a scalar (AddScalar)";
    case ArgKind::kScalarList: case ArgKind::kRawScalarList: return "a scalar list (AddScalarList)";
    case ArgKind::kIntArray: case ArgKind::kRawIntArray: return "an int array (AddIntArray)";
    case ArgKind::kFloatArray: case ArgKind::kRawFloatArray: return "a float array (AddFloatArray)";
    case ArgKind::kBoolArray: case ArgKind::kRawBoolArray: return "a bool array (AddBoolArray)";
    case ArgKind::kInt: return "an integer (AddAttr)";
    case ArgKind::kDouble: return "a floating-point value (AddAttr)";
    case ArgKind::kBool: return "a bool (AddAttr)";
    case ArgKind::kDType: return "an aclDataType (AddAttr)";
    case ArgKind::kString: return "a string (AddAttr)";
  }
  return "?";
}

bool Fits(PType t, ArgKind k) {
  switch (t) {
    case PType::kTensor: return k == ArgKind::kTensor;
    case PType::kTensorList: return k == ArgKind::kTensorList || k == ArgKind::kRawTensorList;
    case PType::kScalar: return k == ArgKind::kScalar || k == ArgKind::kRawScalar;
    case PType::kScalarList: return k == ArgKind::kScalarList || k == ArgKind::kRawScalarList;
    case PType::kIntArray: return k == ArgKind::kIntArray || k == ArgKind::kRawIntArray;
    case PType::kFloatArray: return k == ArgKind::kFloatArray || k == ArgKind::kRawFloatArray;
    case PType::kBoolArray: return k == ArgKind::kBoolArray || k == ArgKind::kRawBoolArray;
    case PType::kInt: return k == ArgKind::kInt;
    case PType::kFloat: return k == ArgKind::kDouble;
    case PType::kBool: return k == ArgKind::kBool;
    case PType::kDType: return k == ArgKind::kDType;
    case PType::kString: return k == ArgKind::kString;
  }
  return false;
}

[[noreturn]] void ArgFail(const OpRecord& op, std::string detail) {
  throw Failure{Status(kParamInvalid, Phase::kArguments, op.name, std::move(detail))};
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

// ---- parsing ---------------------------------------------------------------------------------------

bool ParseParameters(const std::string& text, std::vector<Param>* params, std::string* error) {
  params->clear();
  std::vector<std::string> parts;
  {
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && (text[i] == '(' || text[i] == '[')) ++depth;
      if (i < text.size() && (text[i] == ')' || text[i] == ']')) --depth;
      if (i == text.size() || (text[i] == ',' && depth == 0)) {
        parts.push_back(Trim(text.substr(start, i - start)));
        start = i + 1;
      }
    }
  }
  if (parts.size() == 1 && (parts[0].empty() || parts[0] == "void")) parts.clear();
  if (parts.size() < 2) {
    *error = "the parameter list does not end with (uint64_t* workspaceSize, aclOpExecutor** executor)";
    return false;
  }
  for (size_t k = 0; k < parts.size(); ++k) {
    const std::string& part = parts[k];
    if (part.find_first_of("()[]&") != std::string::npos) {
      *error = "parameter " + std::to_string(k) + " '" + part + "' is not a plain type the runner can pass";
      return false;
    }
    // Tokens: identifiers and '*'.
    std::vector<std::string> tokens;
    for (size_t i = 0; i < part.size();) {
      const unsigned char c = static_cast<unsigned char>(part[i]);
      if (std::isspace(c)) {
        ++i;
      } else if (c == '*') {
        tokens.emplace_back("*");
        ++i;
      } else if (std::isalnum(c) || c == '_') {
        size_t j = i;
        while (j < part.size() && (std::isalnum(static_cast<unsigned char>(part[j])) || part[j] == '_')) ++j;
        tokens.push_back(part.substr(i, j - i));
        i = j;
      } else {
        *error = "parameter " + std::to_string(k) + " '" + part + "' has an unexpected character";
        return false;
      }
    }
    int stars = 0;
    bool pointee_const = false;
    std::vector<std::string> words;
    for (const std::string& t : tokens) {
      if (t == "*") {
        ++stars;
      } else if (t == "const" || t == "volatile") {
        if (stars == 0 && t == "const") pointee_const = true;
      } else if (t == "struct" || t == "enum" || t == "ACL_FUNC_VISIBILITY") {
      } else {
        words.push_back(t);
      }
    }
    Param p;
    p.text = part;
    p.is_const = pointee_const;
    // The last word is the name when the remaining words still name a type.
    std::string name;
    if (words.size() >= 2) {
      name = words.back();
      words.pop_back();
    }
    std::string base;
    for (const std::string& w : words) base += (base.empty() ? "" : " ") + w;
    p.name = name.empty() ? "arg" + std::to_string(k) : name;
    const bool last = k + 1 == parts.size(), second_last = k + 2 == parts.size();
    if (second_last || last) {
      const bool ok = second_last ? (base == "uint64_t" && stars == 1) : (base == "aclOpExecutor" && stars == 2);
      if (!ok) {
        *error = "the parameter list does not end with (uint64_t* workspaceSize, aclOpExecutor** executor)";
        return false;
      }
      continue;
    }
    bool ok = true;
    if (stars == 1) {
      if (base == "aclTensor") p.type = PType::kTensor;
      else if (base == "aclTensorList") p.type = PType::kTensorList;
      else if (base == "aclScalar") p.type = PType::kScalar;
      else if (base == "aclScalarList") p.type = PType::kScalarList;
      else if (base == "aclIntArray") p.type = PType::kIntArray;
      else if (base == "aclFloatArray") p.type = PType::kFloatArray;
      else if (base == "aclBoolArray") p.type = PType::kBoolArray;
      else if (base == "char") p.type = PType::kString;
      else ok = false;
    } else if (stars == 0) {
      if (base == "float") {
        p.type = PType::kFloat;
        p.bits = 32;
      } else if (base == "double") {
        p.type = PType::kFloat;
        p.bits = 64;
      } else if (base == "bool") {
        p.type = PType::kBool;
      } else if (base == "aclDataType") {
        p.type = PType::kDType;
      } else if (IntType(base, &p.bits, &p.is_signed)) {
        p.type = PType::kInt;
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    if (!ok) {
      *error = "parameter " + std::to_string(k) + " '" + part + "' has a type the runner cannot pass";
      return false;
    }
    params->push_back(std::move(p));
  }
  return true;
}

// ---- lookup --------------------------------------------------------------------------------------

const OpRecord* FindOp(const std::string& raw) {
  const std::string name = StripPrefix(raw);
  Registered& reg = Reg();
  if (reg.any.load(std::memory_order_acquire)) {
    std::shared_lock<std::shared_mutex> lock(reg.mu);
    auto it = reg.by_name.find(name);
    if (it != reg.by_name.end()) return it->second;
  }
  const Table& t = StaticTable();
  auto it = t.by_name.find(name);
  return it == t.by_name.end() ? nullptr : it->second;
}

const std::string& OpName(const OpRecord& op) { return op.name; }
const std::vector<Param>& OpParams(const OpRecord& op) { return op.params; }
const std::vector<std::string>& OpNames(const OpRecord& op) { return op.names; }

std::string UnknownOpMessage(const std::string& raw) {
  const std::string name = StripPrefix(raw);
  std::vector<std::pair<size_t, std::string>> near;
  for (const std::string& known : KnownOps()) {
    const size_t d = EditDistance(name, known);
    if (d <= std::max<size_t>(2, name.size() / 3)) near.emplace_back(d, known);
  }
  std::sort(near.begin(), near.end());
  std::string msg = "unknown op '" + name + "': aclnn" + name +
                    "GetWorkspaceSize is not in the runner's signature table (built from the aclnnop headers, " +
                    std::to_string(StaticTable().records.size()) + " ops) nor registered with pacl::RegisterOp";
  if (!near.empty()) {
    msg += "; did you mean ";
    for (size_t k = 0; k < near.size() && k < 3; ++k) msg += (k ? ", " : "") + near[k].second;
    msg += "?";
  }
  return msg;
}

void ResolveOp(const OpRecord& cop, AnyFn* phase1, Phase2Fn* phase2) {
  OpRecord& op = const_cast<OpRecord&>(cop);
  if (!op.resolved.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(op.mu);
    if (!op.resolved.load(std::memory_order_relaxed)) {
      if (!op.parse_error.empty())
        throw Failure{Status(kParamInvalid, Phase::kResolve, op.name,
                             "aclnn" + op.name + "GetWorkspaceSize (" + op.header + "): " + op.parse_error)};
      std::string searched;
      void* p1 = FindSymbol("aclnn" + op.name + "GetWorkspaceSize", &searched);
      void* p2 = p1 ? FindSymbol("aclnn" + op.name, &searched) : nullptr;
      if (!p1 || !p2)
        throw Failure{Status(kParamInvalid, Phase::kResolve, op.name,
                             "aclnn" + op.name + (p1 ? "" : "GetWorkspaceSize") + " is declared in " +
                                 (op.header.empty() ? std::string("a registered signature") : op.header) +
                                 " but no loaded library exports it (searched " + searched +
                                 "); load the op library with pacl::LoadOpLibrary or PACL_RUNNER_OP_LIBS")};
      op.types.clear();
      for (const Param& p : op.params) op.types.push_back(FfiType(p));
      op.types.push_back(&ffi_type_pointer);
      op.types.push_back(&ffi_type_pointer);
      if (ffi_prep_cif(&op.cif, FFI_DEFAULT_ABI, static_cast<unsigned>(op.types.size()), &ffi_type_sint32,
                       op.types.data()) != FFI_OK)
        throw Failure{Status(kInner, Phase::kResolve, op.name, "libffi could not prepare the call of aclnn" + op.name +
                                                                   "GetWorkspaceSize")};
      op.phase1 = ToFn(p1);
      void* p2v = p2;
      Phase2Fn f2;
      std::memcpy(&f2, &p2v, sizeof f2);
      op.phase2 = f2;
      op.resolved.store(true, std::memory_order_release);
    }
  }
  *phase1 = op.phase1;
  *phase2 = op.phase2;
}

aclnnStatus FfiInvoke(const detail::CallSpec& spec, const MatValue* v, uint64_t* ws, aclOpExecutor** ex) {
  const OpRecord& op = *static_cast<const OpRecord*>(spec.op);
  union Slot {
    void* p;
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f;
    double d;
  };
  const size_t n = op.params.size();
  Slot small_slots[16];
  void* small_values[16];
  std::vector<Slot> big_slots;
  std::vector<void*> big_values;
  Slot* slots = small_slots;
  void** values = small_values;
  if (n + 2 > 16) {
    big_slots.resize(n + 2);
    big_values.resize(n + 2);
    slots = big_slots.data();
    values = big_values.data();
  }
  for (size_t k = 0; k < n; ++k) {
    const Param& p = op.params[k];
    Slot& s = slots[k];
    s.u64 = 0;
    switch (p.type) {
      case PType::kInt:
        switch (p.bits) {
          case 8: if (p.is_signed) s.i8 = static_cast<int8_t>(v[k].i); else s.u8 = static_cast<uint8_t>(v[k].i); break;
          case 16: if (p.is_signed) s.i16 = static_cast<int16_t>(v[k].i); else s.u16 = static_cast<uint16_t>(v[k].i); break;
          case 32: if (p.is_signed) s.i32 = static_cast<int32_t>(v[k].i); else s.u32 = static_cast<uint32_t>(v[k].i); break;
          default: if (p.is_signed) s.i64 = v[k].i; else s.u64 = static_cast<uint64_t>(v[k].i); break;
        }
        break;
      case PType::kFloat:
        if (p.bits == 32) s.f = static_cast<float>(v[k].d);
        else s.d = v[k].d;
        break;
      case PType::kBool: s.u8 = v[k].i != 0 ? 1 : 0; break;
      case PType::kDType: s.i32 = static_cast<int32_t>(v[k].i); break;
      default: s.p = v[k].ptr; break;
    }
    values[k] = &s;
  }
  slots[n].p = ws;
  slots[n + 1].p = ex;
  values[n] = &slots[n];
  values[n + 1] = &slots[n + 1];
  ffi_arg rc = 0;
  ffi_call(const_cast<ffi_cif*>(&op.cif), FFI_FN(spec.phase1), &rc, values);
  return static_cast<aclnnStatus>(static_cast<int32_t>(rc));
}

void CheckArguments(const OpRecord& op, const ArgRef* args, size_t n) {
  if (!op.parse_error.empty())
    ArgFail(op, "aclnn" + op.name + "GetWorkspaceSize (" + op.header + "): " + op.parse_error);
  const std::vector<Param>& ps = op.params;
  if (n != ps.size()) {
    std::string list;
    for (const Param& p : ps) list += (list.empty() ? "" : ", ") + p.name;
    ArgFail(op, "aclnn" + op.name + "GetWorkspaceSize takes " + std::to_string(ps.size()) + " argument" +
                    (ps.size() == 1 ? "" : "s") + " (" + list + ") before workspaceSize and executor, but " +
                    std::to_string(n) + (n == 1 ? " was" : " were") + " given");
  }
  for (size_t k = 0; k < n; ++k) {
    const Param& p = ps[k];
    const ArgRef& a = args[k];
    const std::string where = "argument " + std::to_string(k) + " '" + p.name + "' (" + p.text + ")";
    if (!Fits(p.type, a.kind))
      ArgFail(op, where + " takes " + BuilderHint(p.type) + ", but " + GivenAs(a.kind) + " was given");
    if (p.type == PType::kInt) {
      bool fits;
      if (a.u64) {
        fits = !p.is_signed && p.bits == 64;
      } else if (p.is_signed) {
        const int64_t lo = p.bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (p.bits - 1));
        const int64_t hi = p.bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (p.bits - 1)) - 1;
        fits = a.i >= lo && a.i <= hi;
      } else {
        fits = a.i >= 0 && (p.bits == 64 || a.i < (int64_t{1} << p.bits));
      }
      if (!fits) {
        const std::string value = a.u64 ? std::to_string(static_cast<uint64_t>(a.i)) : std::to_string(a.i);
        ArgFail(op, where + ": " + value + " does not fit its " + std::to_string(p.bits) + "-bit " +
                        (p.is_signed ? "signed" : "unsigned") + " type");
      }
    }
  }
}

std::string NameOfPhase1(AnyFn phase1) {
  static std::mutex mu;
  static auto* names = new std::unordered_map<uintptr_t, std::string>;
  const auto key = reinterpret_cast<uintptr_t>(phase1);
  std::lock_guard<std::mutex> lock(mu);
  auto it = names->find(key);
  if (it != names->end()) return it->second;
  std::string name;
  Dl_info info{};
  void* p;
  std::memcpy(&p, &phase1, sizeof p);
  if (dladdr(p, &info) && info.dli_sname) {
    name = info.dli_sname;
    const std::string suffix = "GetWorkspaceSize";
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      name.resize(name.size() - suffix.size());
    name = StripPrefix(name);
  } else {
    char buf[40];
    std::snprintf(buf, sizeof buf, "op@%p", p);
    name = buf;
  }
  names->emplace(key, name);
  return name;
}

}  // namespace pacl::rn

namespace pacl {

bool OpExists(const std::string& op) { return rn::FindOp(op) != nullptr; }

std::vector<std::string> KnownOps() {
  std::vector<std::string> out;
  for (const auto& r : rn::StaticTable().records) out.push_back(r->name);
  {
    rn::Registered& reg = rn::Reg();
    std::shared_lock<std::shared_mutex> lock(reg.mu);
    for (const auto& kv : reg.by_name) out.push_back(kv.first);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string OpPrototype(const std::string& op) {
  const rn::OpRecord* r = rn::FindOp(op);
  if (!r) throw RunnerError(Status(rn::kParamInvalid, Phase::kResolve, rn::StripPrefix(op), rn::UnknownOpMessage(op)));
  return r->prototype;
}

void RegisterOp(const std::string& op, const std::string& parameters) {
  const std::string name = rn::StripPrefix(op);
  bool ident = !name.empty();
  for (char c : name) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ident)
    throw RunnerError(Status(rn::kParamInvalid, Phase::kArguments, name, "'" + op + "' is not an op name"));
  auto rec = rn::MakeRecord(name, "", parameters);
  if (!rec->parse_error.empty())
    throw RunnerError(Status(rn::kParamInvalid, Phase::kArguments, name, "RegisterOp: " + rec->parse_error));
  rn::Registered& reg = rn::Reg();
  std::unique_lock<std::shared_mutex> lock(reg.mu);
  reg.by_name[name] = rec.get();
  reg.all.push_back(std::move(rec));
  reg.any.store(true, std::memory_order_release);
}

void LoadOpLibrary(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    throw RunnerError(Status(rn::kParamInvalid, Phase::kResolve, "",
                             "LoadOpLibrary(" + path + "): " + (e ? e : "dlopen failed")));
  }
  rn::Libraries& libs = rn::Libs();
  std::lock_guard<std::mutex> lock(libs.mu);
  libs.handles.push_back(h);
  libs.names.push_back(path);
}

}  // namespace pacl
