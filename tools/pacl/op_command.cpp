// `pacl op "<descriptor>"`: runs one aclnn op from a one-line problem descriptor, the syntax the op
// tests print as repros:
//
//   Add self=float16[2,3] strides[1,2] offset 1 other=float32[3] alpha=float32(2) out=float32[2,3]
//
// The op's parameters come from its prototype (pacl::OpPrototype); each is given as name=value and
// every parameter not given must be optional (its name ends in "Optional": passed as null). The op
// runs through the op runner by name, so the CLI exercises exactly what a C++ user's call does.
// See docs/tools.md for the grammar; --verify compares with PyTorch (tools/pacl/reference.py).
#include "op_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "pacl/runner.h"

namespace paclcli {
namespace {

struct BadDescriptor : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---- dtypes -------------------------------------------------------------------------------------

enum class Cat { kFloat, kSigned, kUnsigned, kBool };
struct DTypeInfo {
  const char* name;
  const char* acl_name;
  aclDataType type;
  size_t size;
  Cat cat;
};
constexpr DTypeInfo kDTypes[] = {
    {"float32", "ACL_FLOAT", ACL_FLOAT, 4, Cat::kFloat},      {"float16", "ACL_FLOAT16", ACL_FLOAT16, 2, Cat::kFloat},
    {"bfloat16", "ACL_BF16", ACL_BF16, 2, Cat::kFloat},       {"float64", "ACL_DOUBLE", ACL_DOUBLE, 8, Cat::kFloat},
    {"int8", "ACL_INT8", ACL_INT8, 1, Cat::kSigned},          {"int16", "ACL_INT16", ACL_INT16, 2, Cat::kSigned},
    {"int32", "ACL_INT32", ACL_INT32, 4, Cat::kSigned},       {"int64", "ACL_INT64", ACL_INT64, 8, Cat::kSigned},
    {"uint8", "ACL_UINT8", ACL_UINT8, 1, Cat::kUnsigned},     {"uint16", "ACL_UINT16", ACL_UINT16, 2, Cat::kUnsigned},
    {"uint32", "ACL_UINT32", ACL_UINT32, 4, Cat::kUnsigned},  {"uint64", "ACL_UINT64", ACL_UINT64, 8, Cat::kUnsigned},
    {"bool", "ACL_BOOL", ACL_BOOL, 1, Cat::kBool},
};

const DTypeInfo* FindDType(const std::string& s) {
  static const std::map<std::string, std::string> kAlias = {{"float", "float32"}, {"half", "float16"},
                                                            {"double", "float64"}, {"bf16", "bfloat16"}};
  const auto a = kAlias.find(s);
  const std::string n = a == kAlias.end() ? s : a->second;
  for (const DTypeInfo& d : kDTypes)
    if (n == d.name || n == d.acl_name) return &d;
  return nullptr;
}
std::string DTypeList() {
  std::string r;
  for (const DTypeInfo& d : kDTypes) r += (r.empty() ? "" : ", ") + std::string(d.name);
  return r;
}

uint16_t ToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);  // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}
float FromBf16(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

double Load(aclDataType t, const uint8_t* p) {
  switch (t) {
    case ACL_FLOAT: { float v; std::memcpy(&v, p, 4); return v; }
    case ACL_FLOAT16: { aclFloat16 v; std::memcpy(&v, p, 2); return aclFloat16ToFloat(v); }
    case ACL_BF16: { uint16_t v; std::memcpy(&v, p, 2); return FromBf16(v); }
    case ACL_DOUBLE: { double v; std::memcpy(&v, p, 8); return v; }
    case ACL_INT8: return static_cast<int8_t>(*p);
    case ACL_INT16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case ACL_INT32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ACL_INT64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ACL_UINT8: return *p;
    case ACL_UINT16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case ACL_UINT32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case ACL_UINT64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ACL_BOOL: return *p ? 1 : 0;
    default: return 0;
  }
}

template <class T>
void Put(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
void Store(aclDataType t, uint8_t* p, double v) {
  switch (t) {
    case ACL_FLOAT: return Put(p, static_cast<float>(v));
    case ACL_FLOAT16: return Put(p, aclFloatToFloat16(static_cast<float>(v)));
    case ACL_BF16: return Put(p, ToBf16(static_cast<float>(v)));
    case ACL_DOUBLE: return Put(p, v);
    case ACL_INT8: return Put(p, static_cast<int8_t>(v));
    case ACL_INT16: return Put(p, static_cast<int16_t>(v));
    case ACL_INT32: return Put(p, static_cast<int32_t>(v));
    case ACL_INT64: return Put(p, static_cast<int64_t>(v));
    case ACL_UINT8: return Put(p, static_cast<uint8_t>(v));
    case ACL_UINT16: return Put(p, static_cast<uint16_t>(v));
    case ACL_UINT32: return Put(p, static_cast<uint32_t>(v));
    case ACL_UINT64: return Put(p, static_cast<uint64_t>(v));
    case ACL_BOOL: return Put(p, static_cast<uint8_t>(v != 0));
    default: return;
  }
}

// ---- descriptor values --------------------------------------------------------------------------

std::string ShapeStr(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

int64_t ParseInt(const std::string& s, const std::string& what) {
  try {
    size_t used = 0;
    const long long v = std::stoll(s, &used, 0);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw BadDescriptor(what + ": '" + s + "' is not an integer");
}
double ParseReal(const std::string& s, const std::string& what) {
  static const std::map<std::string, double> kNamed = {{"inf", INFINITY}, {"-inf", -INFINITY}, {"nan", NAN}};
  if (auto it = kNamed.find(s); it != kNamed.end()) return it->second;
  try {
    size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw BadDescriptor(what + ": '" + s + "' is not a number");
}
bool ParseBool(const std::string& s, const std::string& what) {
  if (s == "true" || s == "1") return true;
  if (s == "false" || s == "0") return false;
  throw BadDescriptor(what + ": '" + s + "' is not true or false");
}

// Splits "a,b,[c,d]" at the commas outside brackets and parentheses.
std::vector<std::string> SplitTop(const std::string& s) {
  std::vector<std::string> r;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      r.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty() || !r.empty()) r.push_back(cur);
  return r;
}
// "[1,2,3]" -> {"1","2","3"}; "[]" -> {}.
std::vector<std::string> ListItems(const std::string& s, const std::string& what) {
  if (s.size() < 2 || s.front() != '[' || s.back() != ']')
    throw BadDescriptor(what + ": '" + s + "' is not a list in brackets, e.g. [1,2]");
  return SplitTop(s.substr(1, s.size() - 2));
}
std::vector<int64_t> IntList(const std::string& s, const std::string& what) {
  std::vector<int64_t> r;
  for (const std::string& x : ListItems(s, what)) r.push_back(ParseInt(x, what));
  return r;
}

struct TensorSpec {
  const DTypeInfo* dtype = nullptr;
  std::vector<int64_t> shape, strides;
  int64_t offset = 0, storage = -1;
  bool has_range = false;
  double lo = 0, hi = 0;

  std::vector<int64_t> ViewStrides() const {
    if (!strides.empty()) return strides;
    std::vector<int64_t> st(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) st[i - 1] = st[i] * std::max<int64_t>(shape[i], 1);
    return st;
  }
  int64_t Numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  int64_t StorageElems() const {
    if (storage >= 0) return storage;
    if (Numel() == 0) return offset;
    const std::vector<int64_t> st = ViewStrides();
    int64_t last = offset;
    for (size_t i = 0; i < shape.size(); ++i) last += (shape[i] - 1) * st[i];
    return last + 1;
  }
  std::string Str() const {
    std::string r = std::string(dtype->name) + ShapeStr(shape);
    if (!strides.empty()) r += " strides" + ShapeStr(strides);
    if (offset) r += " offset " + std::to_string(offset);
    if (storage >= 0) r += " storage " + std::to_string(storage);
    return r;
  }
};

// "float16[2,3]" (an element of a tensor list, or the head of a tensor argument).
TensorSpec ParseTensorHead(const std::string& s, const std::string& what) {
  const size_t b = s.find('[');
  if (b == std::string::npos || s.back() != ']')
    throw BadDescriptor(what + ": '" + s + "' is not a tensor; write dtype[shape], e.g. float32[2,3]");
  TensorSpec t;
  t.dtype = FindDType(s.substr(0, b));
  if (!t.dtype) throw BadDescriptor(what + ": unknown dtype '" + s.substr(0, b) + "' (one of: " + DTypeList() + ")");
  t.shape = IntList(s.substr(b), what + " shape");
  for (int64_t d : t.shape)
    if (d < 0) throw BadDescriptor(what + ": negative dimension in " + s);
  return t;
}

// A scalar: "float32(2.5)", "int64(3)", "bool(true)", or a bare number (integer -> int64,
// otherwise float32) or true/false.
pacl::Scalar ParseScalar(const std::string& s, const std::string& what) {
  const size_t p = s.find('(');
  if (p != std::string::npos && s.back() == ')') {
    const DTypeInfo* d = FindDType(s.substr(0, p));
    if (!d) throw BadDescriptor(what + ": unknown dtype '" + s.substr(0, p) + "' (one of: " + DTypeList() + ")");
    const std::string v = s.substr(p + 1, s.size() - p - 2);
    if (d->cat == Cat::kBool) return pacl::Scalar(ParseBool(v, what));
    if (d->cat != Cat::kFloat) return pacl::Scalar(static_cast<double>(ParseInt(v, what)), d->type);
    return pacl::Scalar(ParseReal(v, what), d->type);
  }
  if (s == "true" || s == "false") return pacl::Scalar(s == "true");
  if (s.find_first_of(".eEn") == std::string::npos) return pacl::Scalar(ParseInt(s, what));
  return pacl::Scalar(static_cast<float>(ParseReal(s, what)));
}

// ---- the op's parameters ------------------------------------------------------------------------

enum class Kind { kTensor, kTensorList, kScalar, kScalarList, kIntArray, kFloatArray, kBoolArray, kInt, kReal, kBool, kDType, kText };

struct Param {
  std::string type, name;
  Kind kind;
  bool optional() const { return name.find("Optional") != std::string::npos; }
  // Outputs (named out, *Out, *Ref, or a non-const aclTensor*) start zeroed and are what --verify
  // compares; in-place "Ref" tensors are filled like inputs.
  bool output() const {
    auto ends = [&](const char* suf) {
      const size_t n = std::strlen(suf);
      return name.size() >= n && name.compare(name.size() - n, n, suf) == 0;
    };
    const bool non_const_tensor = kind == Kind::kTensor && type.rfind("const", 0) != 0;
    return name == "out" || ends("Out") || ends("OutOptional") || ends("Ref") || ends("RefOptional") || non_const_tensor;
  }
  bool filled() const {
    return !output() || name.find("Ref") != std::string::npos;
  }
};

Kind KindOf(const std::string& type) {
  auto has = [&](const char* s) { return type.find(s) != std::string::npos; };
  if (has("aclTensorList")) return Kind::kTensorList;
  if (has("aclTensor")) return Kind::kTensor;
  if (has("aclScalarList")) return Kind::kScalarList;
  if (has("aclScalar")) return Kind::kScalar;
  if (has("aclIntArray")) return Kind::kIntArray;
  if (has("aclFloatArray")) return Kind::kFloatArray;
  if (has("aclBoolArray")) return Kind::kBoolArray;
  if (has("aclDataType")) return Kind::kDType;
  if (has("char")) return Kind::kText;
  if (has("bool")) return Kind::kBool;
  if (has("float") || has("double")) return Kind::kReal;
  return Kind::kInt;
}

std::vector<Param> ParsePrototype(const std::string& proto) {
  std::vector<Param> r;
  for (std::string p : SplitTop(proto)) {
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.front()))) p.erase(0, 1);
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.back()))) p.pop_back();
    const size_t sp = p.find_last_of(" *&");
    Param q;
    q.name = p.substr(sp + 1);
    q.type = p.substr(0, sp + 1);
    while (!q.type.empty() && q.type.back() == ' ') q.type.pop_back();
    if (q.type.find("aclOpExecutor") != std::string::npos || q.name.find("orkspace") != std::string::npos) continue;
    q.kind = KindOf(q.type);
    r.push_back(q);
  }
  return r;
}

// ---- device tensors -----------------------------------------------------------------------------

struct DevTensor {
  TensorSpec spec;
  std::vector<uint8_t> host;  // the whole storage
  void* dev = nullptr;
  aclTensor* t = nullptr;
  ~DevTensor() {
    if (t) aclDestroyTensor(t);
    if (dev) aclrtFree(dev);
  }
  size_t Bytes() const { return host.size(); }
  void Upload() {
    if (!host.empty() && aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE) != 0)
      throw std::runtime_error(std::string("aclrtMemcpy to the device failed: ") + aclGetRecentErrMsg());
  }
  void Download() {
    if (!host.empty() && aclrtMemcpy(host.data(), host.size(), dev, host.size(), ACL_MEMCPY_DEVICE_TO_HOST) != 0)
      throw std::runtime_error(std::string("aclrtMemcpy to the host failed: ") + aclGetRecentErrMsg());
  }
  // The view's elements in row-major order.
  std::vector<double> View() const {
    std::vector<double> r;
    const std::vector<int64_t> st = spec.ViewStrides();
    const int64_t n = spec.Numel();
    r.reserve(static_cast<size_t>(n));
    std::vector<int64_t> idx(spec.shape.size(), 0);
    for (int64_t k = 0; k < n; ++k) {
      int64_t off = spec.offset;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * st[d];
      r.push_back(Load(spec.dtype->type, host.data() + off * static_cast<int64_t>(spec.dtype->size)));
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < spec.shape[d]) break;
        idx[d] = 0;
      }
    }
    return r;
  }
};

std::unique_ptr<DevTensor> MakeTensor(const TensorSpec& s, bool fill, const OpOptions& o, std::mt19937_64& rng) {
  auto t = std::make_unique<DevTensor>();
  t->spec = s;
  if (!s.strides.empty() && s.strides.size() != s.shape.size())
    throw BadDescriptor(s.Str() + ": " + std::to_string(s.strides.size()) + " strides for " +
                        std::to_string(s.shape.size()) + " dimensions");
  const size_t es = s.dtype->size;
  t->host.assign(static_cast<size_t>(s.StorageElems()) * es, 0);
  if (fill) {
    const Cat c = s.dtype->cat;
    const double lo = s.has_range ? s.lo : (c == Cat::kUnsigned ? 0 : c == Cat::kBool ? 0 : c == Cat::kFloat ? -2 : -10);
    const double hi = s.has_range ? s.hi : (c == Cat::kBool ? 1 : c == Cat::kFloat ? 2 : 10);
    for (size_t k = 0; k < t->host.size() / es; ++k) {
      double v;
      if (o.fill == "random") {
        if (c == Cat::kFloat) v = std::uniform_real_distribution<double>(lo, hi)(rng);
        else v = static_cast<double>(std::uniform_int_distribution<int64_t>(static_cast<int64_t>(lo), static_cast<int64_t>(hi))(rng));
      } else if (o.fill == "zeros") {
        v = 0;
      } else if (o.fill == "ones") {
        v = 1;
      } else if (o.fill == "arange") {
        v = static_cast<double>(k);
      } else {
        v = ParseReal(o.fill, "--fill");
      }
      Store(s.dtype->type, t->host.data() + k * es, v);
    }
  }
  const size_t bytes = std::max<size_t>(t->host.size(), 1);
  if (aclrtMalloc(&t->dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    throw std::runtime_error("aclrtMalloc(" + std::to_string(bytes) + ") for " + s.Str() + " failed: " + aclGetRecentErrMsg());
  if (aclrtMemset(t->dev, bytes, 0, bytes) != ACL_SUCCESS) throw std::runtime_error(aclGetRecentErrMsg());
  t->Upload();
  const std::vector<int64_t> st = s.ViewStrides();
  const int64_t storage[1] = {s.StorageElems()};
  t->t = aclCreateTensor(s.shape.data(), s.shape.size(), s.dtype->type, st.data(), s.offset, ACL_FORMAT_ND, storage, 1,
                         t->dev);
  if (!t->t) throw BadDescriptor(s.Str() + ": aclCreateTensor refused it: " + aclGetRecentErrMsg());
  return t;
}

// ---- the parsed call ----------------------------------------------------------------------------

struct Arg {
  const Param* param = nullptr;
  std::string text;  // the value as written ("" when absent)
  std::vector<TensorSpec> tensors;  // kTensor: one; kTensorList: each element
};

// Tokens split at spaces outside brackets ("[2, 3]" stays one token, spaces removed).
std::vector<std::string> Tokens(const std::string& s) {
  std::vector<std::string> r;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (depth > 0) continue;
      if (!cur.empty()) r.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) r.push_back(cur);
  return r;
}

struct Call {
  std::string op;
  std::vector<Param> params;
  std::vector<Arg> args;  // one per parameter, in order
};

Call ParseDescriptor(const std::string& descriptor) {
  const std::vector<std::string> tok = Tokens(descriptor);
  if (tok.empty()) throw BadDescriptor("the descriptor is empty; it starts with the op name, e.g. \"Add self=float32[2,3] ...\"");
  Call c;
  c.op = tok[0].rfind("aclnn", 0) == 0 ? tok[0].substr(5) : tok[0];
  if (!pacl::OpExists(c.op))
    throw BadDescriptor("unknown op '" + tok[0] + "' (`pacl ops` lists the implemented ops)");
  const std::string proto = pacl::OpPrototype(c.op);
  c.params = ParsePrototype(proto);
  c.args.resize(c.params.size());
  for (size_t i = 0; i < c.params.size(); ++i) c.args[i].param = &c.params[i];
  auto find = [&](const std::string& name) -> Arg* {
    for (Arg& a : c.args)
      if (a.param->name == name) return &a;
    return nullptr;
  };
  std::string names;
  for (const Param& p : c.params) names += (names.empty() ? "" : ", ") + p.name;
  Arg* last_tensor = nullptr;
  for (size_t i = 1; i < tok.size(); ++i) {
    const std::string& t = tok[i];
    // Modifiers of the tensor just given: strides[..], offset N, storage N, range[lo,hi].
    if (last_tensor && (t.rfind("strides[", 0) == 0 || t.rfind("range[", 0) == 0 || t == "offset" || t == "storage")) {
      TensorSpec& s = last_tensor->tensors.back();
      if (t.rfind("strides[", 0) == 0) {
        s.strides = IntList(t.substr(7), last_tensor->param->name + " strides");
      } else if (t.rfind("range[", 0) == 0) {
        const std::vector<std::string> r = ListItems(t.substr(5), last_tensor->param->name + " range");
        if (r.size() != 2) throw BadDescriptor(last_tensor->param->name + ": range takes [lo,hi]");
        s.has_range = true;
        s.lo = ParseReal(r[0], "range");
        s.hi = ParseReal(r[1], "range");
      } else {
        if (i + 1 >= tok.size()) throw BadDescriptor(t + " needs a number after it");
        (t == "offset" ? s.offset : s.storage) = ParseInt(tok[++i], last_tensor->param->name + " " + t);
      }
      continue;
    }
    const size_t eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
      throw BadDescriptor("'" + t + "' is not name=value (aclnn" + c.op + " takes: " + names + ")");
    Arg* a = find(t.substr(0, eq));
    if (!a) throw BadDescriptor("aclnn" + c.op + " has no parameter '" + t.substr(0, eq) + "' (it takes: " + names + ")");
    if (!a->text.empty()) throw BadDescriptor("parameter '" + a->param->name + "' is given twice");
    a->text = t.substr(eq + 1);
    last_tensor = nullptr;
    if (a->text == "null" || a->text == "none") continue;
    if (a->param->kind == Kind::kTensor) {
      a->tensors.push_back(ParseTensorHead(a->text, a->param->name));
      last_tensor = a;
    } else if (a->param->kind == Kind::kTensorList) {
      for (const std::string& e : ListItems(a->text, a->param->name))
        a->tensors.push_back(ParseTensorHead(e, a->param->name));
    }
  }
  for (const Arg& a : c.args)
    if (a.text.empty() && !a.param->optional())
      throw BadDescriptor("aclnn" + c.op + " needs '" + a.param->name + "' (" + a.param->type + "); its parameters: " +
                          proto);
  return c;
}

// ---- running ------------------------------------------------------------------------------------

struct Bound {
  std::vector<std::unique_ptr<DevTensor>> tensors;  // every tensor made, in argument order
  std::vector<std::pair<const Arg*, std::vector<DevTensor*>>> per_arg;
};

void AddArgs(const Call& c, const OpOptions& o, pacl::OpRunner& r, Bound& b, std::mt19937_64& rng) {
  for (const Arg& a : c.args) {
    const Param& p = *a.param;
    const std::string& v = a.text;
    const bool null = v.empty() || v == "null" || v == "none";
    std::vector<DevTensor*> made;
    switch (p.kind) {
      case Kind::kTensor:
        if (null) {
          r.AddInput(nullptr);
        } else {
          b.tensors.push_back(MakeTensor(a.tensors[0], p.filled(), o, rng));
          made.push_back(b.tensors.back().get());
          if (p.output()) r.AddOutput(made.back()->t);
          else r.AddInput(made.back()->t);
        }
        break;
      case Kind::kTensorList: {
        if (null) {
          r.AddTensorList(static_cast<const aclTensorList*>(nullptr));
          break;
        }
        std::vector<const aclTensor*> list;
        for (const TensorSpec& s : a.tensors) {
          b.tensors.push_back(MakeTensor(s, p.filled(), o, rng));
          made.push_back(b.tensors.back().get());
          list.push_back(made.back()->t);
        }
        r.AddTensorList(list, p.output());
        break;
      }
      case Kind::kScalar:
        if (null) r.AddScalar(nullptr);
        else r.AddScalar(ParseScalar(v, p.name));
        break;
      case Kind::kScalarList: {
        if (null) {
          r.AddScalarList(static_cast<const aclScalarList*>(nullptr));
          break;
        }
        std::vector<pacl::Scalar> s;
        for (const std::string& x : ListItems(v, p.name)) s.push_back(ParseScalar(x, p.name));
        r.AddScalarList(s);
        break;
      }
      case Kind::kIntArray:
        if (null) r.AddIntArray(static_cast<const aclIntArray*>(nullptr));
        else r.AddIntArray(IntList(v, p.name));
        break;
      case Kind::kFloatArray: {
        if (null) {
          r.AddFloatArray(static_cast<const aclFloatArray*>(nullptr));
          break;
        }
        std::vector<float> f;
        for (const std::string& x : ListItems(v, p.name)) f.push_back(static_cast<float>(ParseReal(x, p.name)));
        r.AddFloatArray(f);
        break;
      }
      case Kind::kBoolArray: {
        if (null) {
          r.AddBoolArray(static_cast<const aclBoolArray*>(nullptr));
          break;
        }
        std::vector<bool> f;
        for (const std::string& x : ListItems(v, p.name)) f.push_back(ParseBool(x, p.name));
        r.AddBoolArray(f);
        break;
      }
      case Kind::kInt:
        r.AddAttr(null ? int64_t{0} : ParseInt(v, p.name));
        break;
      case Kind::kReal:
        r.AddAttr(null ? 0.0 : ParseReal(v, p.name));
        break;
      case Kind::kBool:
        r.AddAttr(null ? false : ParseBool(v, p.name));
        break;
      case Kind::kDType: {
        const DTypeInfo* d = null ? nullptr : FindDType(v);
        if (!null && !d) throw BadDescriptor(p.name + ": unknown dtype '" + v + "' (one of: " + DTypeList() + ")");
        r.AddAttr(d ? d->type : ACL_DT_UNDEFINED);
        break;
      }
      case Kind::kText:
        r.AddAttr(null ? std::string() : v);
        break;
    }
    b.per_arg.emplace_back(&a, std::move(made));
  }
}

std::string Summary(const DevTensor& t) {
  const std::vector<double> v = t.View();
  std::string r = t.spec.Str();
  if (v.empty()) return r + " (empty)";
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  size_t nan = 0;
  for (double x : v) {
    if (std::isnan(x)) {
      ++nan;
      continue;
    }
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    sum += x;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "  min %.6g  max %.6g  mean %.6g", lo, hi, v.size() > nan ? sum / static_cast<double>(v.size() - nan) : NAN);
  r += buf;
  if (nan) r += "  (" + std::to_string(nan) + " NaN)";
  r += "\n      values:";
  for (size_t i = 0; i < std::min<size_t>(v.size(), 8); ++i) {
    std::snprintf(buf, sizeof buf, " %.6g", v[i]);
    r += buf;
  }
  if (v.size() > 8) r += " ...";
  return r;
}

// ---- --verify: PyTorch through tools/pacl/reference.py ------------------------------------------

nlohmann::json TensorJson(const DevTensor& t, const std::string& file) {
  return {{"dtype", t.spec.dtype->name}, {"shape", t.spec.shape},   {"strides", t.spec.ViewStrides()},
          {"offset", t.spec.offset},     {"storage", t.spec.StorageElems()}, {"file", file}};
}

struct Tol {
  double rtol, atol;
};
Tol ToleranceOf(aclDataType t) {
  switch (t) {
    case ACL_FLOAT16: return {1e-3, 1e-3};
    case ACL_BF16: return {8e-3, 8e-3};
    case ACL_FLOAT: return {1e-4, 1e-5};
    case ACL_DOUBLE: return {1e-10, 1e-12};
    default: return {0, 0};
  }
}

// pre: each of b.tensors' storage as uploaded before the run (the reference's inputs); the tensors'
// host copies hold the results.
int Verify(const Call& c, const Bound& b, const std::vector<std::vector<uint8_t>>& pre, const std::string& dir,
           const std::string& reference_script) {
  std::map<const DevTensor*, const std::vector<uint8_t>*> before;
  for (size_t i = 0; i < b.tensors.size(); ++i) before[b.tensors[i].get()] = &pre[i];
  nlohmann::json m;
  m["op"] = c.op;
  m["args"] = nlohmann::json::array();
  int file_no = 0;
  std::vector<std::pair<DevTensor*, std::string>> outputs;  // tensor, expected-values file
  for (const auto& [a, made] : b.per_arg) {
    nlohmann::json j;
    j["name"] = a->param->name;
    const bool null = a->text.empty() || a->text == "null" || a->text == "none";
    j["null"] = null;
    j["output"] = a->param->output();
    switch (a->param->kind) {
      case Kind::kTensor:
      case Kind::kTensorList: {
        j["kind"] = a->param->kind == Kind::kTensor ? "tensor" : "tensor_list";
        nlohmann::json items = nlohmann::json::array();
        for (DevTensor* t : made) {
          const std::string f = dir + "/arg" + std::to_string(file_no++) + ".bin";
          const std::vector<uint8_t>& in = *before.at(t);
          std::ofstream(f, std::ios::binary).write(reinterpret_cast<const char*>(in.data()),
                                                   static_cast<std::streamsize>(in.size()));
          nlohmann::json tj = TensorJson(*t, f);
          if (a->param->output()) {
            tj["expected"] = f + ".expected";
            outputs.emplace_back(t, f + ".expected");
          }
          items.push_back(tj);
        }
        j["tensors"] = items;
        break;
      }
      default:
        j["kind"] = "value";
        j["text"] = a->text;
        j["type"] = a->param->type;
        break;
    }
    m["args"].push_back(j);
  }
  const std::string manifest = dir + "/call.json";
  std::ofstream(manifest) << m.dump(1);
  if (outputs.empty()) throw BadDescriptor("aclnn" + c.op + " has no output tensor to verify");
  const std::string cmd = "/usr/bin/python3 '" + reference_script + "' '" + manifest + "'";
  const int rc = std::system(cmd.c_str());
  if (rc != 0) {
    std::fprintf(stderr, "pacl: error: the PyTorch reference could not compute aclnn%s (see above)\n", c.op.c_str());
    return 2;
  }
  int failures = 0;
  for (const auto& [t, file] : outputs) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::printf("  verify %s: not compared (the reference does not state this output)\n", t->spec.Str().c_str());
      continue;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t es = t->spec.dtype->size;
    const std::vector<double> got = t->View();
    if (bytes.size() != got.size() * es) {
      std::printf("  %s: the reference has %zu elements, the output %zu\n", t->spec.Str().c_str(), bytes.size() / es,
                  got.size());
      ++failures;
      continue;
    }
    const Tol tol = ToleranceOf(t->spec.dtype->type);
    size_t bad = 0;
    double max_abs = 0;
    std::string first;
    for (size_t i = 0; i < got.size(); ++i) {
      const double e = Load(t->spec.dtype->type, bytes.data() + i * es), g = got[i];
      bool ok;
      if (std::isnan(e) || std::isnan(g)) ok = std::isnan(e) && std::isnan(g);
      else if (std::isinf(e) || std::isinf(g)) ok = e == g;
      else ok = std::fabs(g - e) <= tol.atol + tol.rtol * std::fabs(e);
      if (!std::isnan(e) && !std::isnan(g) && !std::isinf(e) && !std::isinf(g)) max_abs = std::max(max_abs, std::fabs(g - e));
      if (!ok && bad++ < 5) {
        char buf[120];
        std::snprintf(buf, sizeof buf, "\n      element %zu: got %.9g, expected %.9g", i, g, e);
        first += buf;
      }
    }
    std::printf("  verify %s: %s (%zu elements, max |error| %.3g, tolerance %.0e + %.0e*|expected|)%s\n",
                t->spec.Str().c_str(), bad ? "MISMATCH" : "ok", got.size(), max_abs, tol.atol, tol.rtol, first.c_str());
    if (bad) {
      std::printf("      %zu of %zu elements differ\n", bad, got.size());
      ++failures;
    }
  }
  return failures ? 1 : 0;
}

}  // namespace

int OpCommand(const std::string& descriptor, const OpOptions& o) {
  Call call;
  try {
    call = ParseDescriptor(descriptor);
  } catch (const BadDescriptor& e) {
    std::fprintf(stderr, "pacl: error: %s\n", e.what());
    return 2;
  } catch (const pacl::RunnerError& e) {
    std::fprintf(stderr, "pacl: error: %s\n", e.what());
    return 2;
  }
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    std::fprintf(stderr, "pacl: error: the runtime did not start: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  int rc = 0;
  {
    Bound b;
    std::mt19937_64 rng(o.seed);
    try {
      pacl::OpRunner r(call.op, stream);
      AddArgs(call, o, r, b, rng);
      // Keep the inputs as uploaded (an in-place op overwrites them) for --verify.
      std::vector<std::vector<uint8_t>> before;
      for (const auto& t : b.tensors) before.push_back(t->host);
      pacl::RunInfo info;
      const auto t0 = std::chrono::steady_clock::now();
      const pacl::Status st = r.TryRun(&info);
      const double first_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (!st.ok()) {
        std::fprintf(stderr, "pacl: error: %s\n", st.ToString().c_str());
        rc = 1;
      } else {
        std::printf("aclnn%s\n", call.op.c_str());
        for (const auto& [a, made] : b.per_arg)
          if (!a->text.empty()) {
            std::string shown;
            for (DevTensor* t : made) shown += (shown.empty() ? "" : ", ") + t->spec.Str();
            std::printf("  %-16s %s\n", a->param->name.c_str(), made.empty() ? a->text.c_str() : shown.c_str());
          }
        std::printf("  workspace        %llu bytes\n", static_cast<unsigned long long>(info.workspace_size));
        std::printf("  kernel           %s\n", info.kernel.empty() ? "(none: nothing to compute)" : info.kernel.c_str());
        std::printf("  first run        %.1f us (phase 1, workspace, phase 2, synchronize)\n", first_us);
        for (const auto& t : b.tensors) t->Download();
        for (const auto& [a, made] : b.per_arg)
          if (a->param->output())
            for (DevTensor* t : made) std::printf("  %-16s %s\n", a->param->name.c_str(), Summary(*t).c_str());
        if (o.bench > 0) {
          std::vector<double> us;
          for (int i = 0; i < o.bench; ++i) {
            const auto b0 = std::chrono::steady_clock::now();
            const pacl::Status s2 = r.TryRun();
            us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - b0).count());
            if (!s2.ok()) {
              std::fprintf(stderr, "pacl: error: run %d: %s\n", i + 1, s2.ToString().c_str());
              rc = 1;
              break;
            }
          }
          if (rc == 0) {
            std::sort(us.begin(), us.end());
            double bytes = 0;
            for (const auto& t : b.tensors) bytes += static_cast<double>(t->spec.Numel() * static_cast<int64_t>(t->spec.dtype->size));
            const double med = us[us.size() / 2];
            std::printf("  bench            %d runs: median %.2f us, min %.2f us; %.2f GB/s over the tensors' %.0f bytes\n",
                        o.bench, med, us.front(), bytes / (med * 1e3), bytes);
          }
        }
        if (rc == 0 && o.verify) {
          char tmpl[] = "/tmp/pacl-op-XXXXXX";
          const char* dir = mkdtemp(tmpl);
          if (!dir) throw std::runtime_error("cannot create a temporary directory");
          rc = Verify(call, b, before, dir, o.reference);
          std::system(("rm -rf '" + std::string(dir) + "'").c_str());
        }
      }
    } catch (const BadDescriptor& e) {
      std::fprintf(stderr, "pacl: error: %s\n", e.what());
      rc = 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pacl: error: %s\n", e.what());
      rc = 1;
    }
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return rc;
}

}  // namespace paclcli
