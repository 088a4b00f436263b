// The executor-cache key: a self-describing sequence of 64-bit words. Each field is a header word
// (tag, argument, list element, length) followed by its content, so two keys are equal exactly when
// every field is, and a miss can be explained field by field.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "internal.h"
#include "pacl/info.h"

namespace pacl::rn {

namespace {

enum Tag : uint64_t {
  kOp = 1,
  kDevice,
  kArg,
  kNull,
  kView,
  kStrides,
  kOffset,
  kStorage,
  kDtype,
  kFormat,
  kListLen,
  kScalarField,
  kInts,
  kFloats,
  kBools,
  kIntAttr,
  kDoubleAttr,
  kBoolAttr,
  kDTypeAttr,
  kString,
  kAlias,
};

constexpr uint64_t kMaxLen = (uint64_t{1} << 24) - 1;

uint64_t Header(Tag tag, uint64_t arg, uint64_t elem, uint64_t len) {
  return (static_cast<uint64_t>(tag) << 56) | ((arg & 0xFFFF) << 40) | ((elem & 0xFFFF) << 24) | len;
}
Tag TagOf(uint64_t h) { return static_cast<Tag>(h >> 56); }
uint32_t ArgOf(uint64_t h) { return static_cast<uint32_t>((h >> 40) & 0xFFFF); }
uint32_t ElemOf(uint64_t h) { return static_cast<uint32_t>((h >> 24) & 0xFFFF); }
uint32_t LenOf(uint64_t h) { return static_cast<uint32_t>(h & kMaxLen); }

uint64_t Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
uint64_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

[[noreturn]] void ReadFail(uint32_t arg, uint32_t elem, const std::vector<std::string>& names, const char* api,
                          aclnnStatus st) {
  const std::string msg = RecentAclMessage();
  throw Failure{Status(st ? st : kParamInvalid, Phase::kArguments, "",
                       ArgLabel(arg, elem, names) + ": " + api + " failed (is it a live aclTensor?)", {}, msg)};
}

// Appends fields to a key. The key vector's size is used as capacity while writing (the thread's
// scratch key keeps its size between calls, so the steady state neither allocates nor zero-fills);
// Finish() trims it to what was written.
class Writer {
 public:
  explicit Writer(std::vector<uint64_t>& k) : k_(k) {}
  void Field(Tag tag, uint64_t arg, uint64_t elem, const uint64_t* v, size_t n) {
    if (n > kMaxLen)
      throw Failure{Status(kParamInvalid, Phase::kArguments, "",
                           "argument " + std::to_string(arg) + " is too large to key the executor cache on (" +
                               std::to_string(n) + " values); run it with the cache off")};
    uint64_t* p = Room(n + 1);
    p[0] = Header(tag, arg, elem, n);
    if (n) std::memcpy(p + 1, v, n * sizeof(uint64_t));
    n_ += n + 1;
  }
  void Field1(Tag tag, uint64_t arg, uint64_t elem, uint64_t v) {
    uint64_t* p = Room(2);
    p[0] = Header(tag, arg, elem, 1);
    p[1] = v;
    n_ += 2;
  }
  void Dims(Tag tag, uint64_t arg, uint64_t elem, const int64_t* v, size_t n) {
    uint64_t* p = Room(n + 1);
    p[0] = Header(tag, arg, elem, n);
    if (n) std::memcpy(p + 1, v, n * sizeof(uint64_t));
    n_ += n + 1;
  }
  void Finish() { k_.resize(n_); }

 private:
  uint64_t* Room(size_t m) {
    if (n_ + m > k_.size()) k_.resize(std::max(k_.size() * 2, n_ + m + 64));
    return k_.data() + n_;
  }
  std::vector<uint64_t>& k_;
  size_t n_ = 0;
};

void TensorFields(CallState& cs, Writer& w, const aclTensor* t, uint32_t arg, uint32_t elem,
                  const std::vector<std::string>& names) {
  if (!t) {
    w.Field(kNull, arg, elem, nullptr, 0);
    return;
  }
  ReadTensor(cs, t, arg, elem, elem != 0, names);
  const TensorRec& r = cs.tensors.back();
  const int64_t* d = cs.dims.data();
  w.Dims(kView, arg, elem, d + r.view_at, r.ndim);
  w.Dims(kStrides, arg, elem, d + r.strides_at, r.ndim);
  w.Field1(kOffset, arg, elem, static_cast<uint64_t>(r.offset));
  w.Dims(kStorage, arg, elem, d + r.storage_at, r.sdim);
  w.Field1(kDtype, arg, elem, static_cast<uint64_t>(static_cast<int64_t>(r.dtype)));
  w.Field1(kFormat, arg, elem, static_cast<uint64_t>(static_cast<int64_t>(r.format)));
}

void AliasFields(const CallState& cs, Writer& w) {
  const std::vector<TensorRec>& t = cs.tensors;
  const size_t n = t.size();
  auto emit = [&](size_t j, size_t k) {
    const TensorRec& a = t[j];
    const TensorRec& b = t[k];
    uint64_t v[3];
    v[0] = (static_cast<uint64_t>(a.arg) << 32) | a.elem;
    if (a.user == b.user) {
      v[1] = 1;
      v[2] = 0;
    } else {
      v[1] = 2;
      v[2] = static_cast<uint64_t>(b.lo - a.lo);  // two's complement displacement
    }
    w.Field(kAlias, b.arg, b.elem, v, 3);
  };
  auto related = [&](size_t j, size_t k) {
    const TensorRec& a = t[j];
    const TensorRec& b = t[k];
    if (a.user == b.user) return true;
    return a.has_extent && b.has_extent && a.lo < b.hi && b.lo < a.hi;
  };
  if (n <= 48) {
    for (size_t k = 1; k < n; ++k)
      for (size_t j = 0; j < k; ++j)
        if (related(j, k)) emit(j, k);
    return;
  }
  // Many tensors (long lists): candidates from sorting by address and by handle.
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<size_t> idx(n);
  for (size_t i = 0; i < n; ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return t[a].user < t[b].user; });
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && t[idx[j]].user == t[idx[i]].user) ++j;
    for (size_t a = i; a < j; ++a)
      for (size_t b = a + 1; b < j; ++b) pairs.emplace_back(std::min(idx[a], idx[b]), std::max(idx[a], idx[b]));
    i = j;
  }
  std::vector<size_t> ext;
  for (size_t i = 0; i < n; ++i)
    if (t[i].has_extent) ext.push_back(i);
  std::sort(ext.begin(), ext.end(), [&](size_t a, size_t b) { return t[a].lo < t[b].lo; });
  for (size_t a = 0; a < ext.size(); ++a)
    for (size_t b = a + 1; b < ext.size() && t[ext[b]].lo < t[ext[a]].hi; ++b)
      if (t[ext[a]].user != t[ext[b]].user)
        pairs.emplace_back(std::min(ext[a], ext[b]), std::max(ext[a], ext[b]));
  std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second < y.second : x.first < y.first;
  });
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const auto& p : pairs) emit(p.first, p.second);
}

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

struct Field {
  uint64_t header;
  size_t pos;
  uint32_t len;
};

std::vector<Field> Fields(const std::vector<uint64_t>& k) {
  std::vector<Field> f;
  for (size_t i = 0; i < k.size();) {
    const uint32_t len = LenOf(k[i]);
    f.push_back(Field{k[i], i + 1, len});
    i += 1 + len;
  }
  return f;
}

bool SameField(const std::vector<uint64_t>& a, const Field& fa, const std::vector<uint64_t>& b, const Field& fb) {
  return fa.header == fb.header &&
         std::equal(a.begin() + static_cast<long>(fa.pos), a.begin() + static_cast<long>(fa.pos + fa.len),
                    b.begin() + static_cast<long>(fb.pos));
}

const char* FieldName(Tag t) {
  switch (t) {
    case kOp: return "op";
    case kDevice: return "device";
    case kArg: return "argument kind";
    case kNull: return "null tensor";
    case kView: return "view shape";
    case kStrides: return "strides";
    case kOffset: return "offset";
    case kStorage: return "storage shape";
    case kDtype: return "dtype";
    case kFormat: return "format";
    case kListLen: return "list length";
    case kScalarField: return "scalar";
    case kInts: case kFloats: case kBools: return "array contents";
    case kIntAttr: case kDoubleAttr: case kBoolAttr: case kDTypeAttr: case kString: return "attribute";
    case kAlias: return "aliasing";
  }
  return "field";
}

std::string FieldValue(const std::vector<uint64_t>& k, const Field& f, const std::vector<std::string>& names) {
  const uint64_t* v = k.data() + f.pos;
  const uint32_t n = f.len;
  char buf[64];
  switch (TagOf(f.header)) {
    case kOp: return "aclnn" + NameOfPhase1(reinterpret_cast<AnyFn>(static_cast<uintptr_t>(v[0])));
    case kDevice: return std::to_string(static_cast<int64_t>(v[0]));
    case kNull: return "null";
    case kView: case kStrides: case kStorage: case kInts: {
      std::vector<int64_t> d(v, v + n);
      return Join(d.data(), d.size());
    }
    case kOffset: case kIntAttr: case kArg: return std::to_string(static_cast<int64_t>(v[0]));
    case kDtype: case kDTypeAttr: return DTypeName(static_cast<aclDataType>(static_cast<int64_t>(v[0])));
    case kFormat: return FormatName(static_cast<aclFormat>(static_cast<int64_t>(v[0])));
    case kListLen: return std::to_string(v[0]);
    case kScalarField: {
      unsigned char bytes[8];
      std::memcpy(bytes, &v[1], 8);
      return Scalar::FromBytes(bytes, static_cast<aclDataType>(static_cast<int64_t>(v[0]))).ToString();
    }
    case kFloats: {
      std::string s = "[";
      for (uint32_t i = 0; i < n; ++i) {
        float x;
        const uint32_t u = static_cast<uint32_t>(v[i]);
        std::memcpy(&x, &u, 4);
        std::snprintf(buf, sizeof buf, "%s%.9g", i ? "," : "", static_cast<double>(x));
        s += buf;
      }
      return s + "]";
    }
    case kBools: {
      std::string s = "[";
      for (uint32_t i = 0; i < n; ++i) s += std::string(i ? "," : "") + (v[i] ? "true" : "false");
      return s + "]";
    }
    case kDoubleAttr: {
      double d;
      std::memcpy(&d, &v[0], 8);
      std::snprintf(buf, sizeof buf, "%.17g", d);
      return buf;
    }
    case kBoolAttr: return v[0] ? "true" : "false";
    case kString: {
      if (ElemOf(f.header)) return "null";
      std::string s(static_cast<size_t>(v[0]), '\0');
      std::memcpy(s.data(), v + 1, s.size());
      return "\"" + s + "\"";
    }
    case kAlias: {
      const uint32_t arg = static_cast<uint32_t>(v[0] >> 32), elem = static_cast<uint32_t>(v[0] & 0xFFFFFFFF);
      std::string other = ArgLabel(arg, elem, names);
      if (v[1] == 1) return "is the same tensor as " + other;
      std::snprintf(buf, sizeof buf, "%+" PRId64, static_cast<int64_t>(v[2]));
      return "overlaps " + other + " at byte offset " + buf;
    }
  }
  return "?";
}

}  // namespace

std::string ArgLabel(uint32_t arg, uint32_t elem, const std::vector<std::string>& names) {
  std::string s = "argument " + std::to_string(arg);
  if (arg < names.size()) s += " '" + names[arg] + "'";
  if (elem) s += "[" + std::to_string(elem - 1) + "]";
  return s;
}

namespace {

// paclGetTensorView when the process has it (found once with dlsym): on CANN, null.
using TensorViewFn = aclnnStatus (*)(const aclTensor*, paclTensorView*);
TensorViewFn TensorViewGetter() {
  static const TensorViewFn fn = PaclExtension<TensorViewFn>("paclGetTensorView");
  return fn;
}

// The shape, strides, storage shape, offset, dtype, format and address of t through the public
// CANN getters.
void ReadTensorWithGetters(CallState& cs, const aclTensor* t, TensorRec& r, uint32_t arg, uint32_t elem,
                           const std::vector<std::string>& names) {
  int64_t* p = nullptr;
  uint64_t n = 0;
  aclnnStatus st = aclGetViewShape(t, &p, &n);
  if (st != 0) ReadFail(arg, elem, names, "aclGetViewShape", st);
  r.view_at = static_cast<uint32_t>(cs.dims.size());
  r.ndim = static_cast<uint32_t>(n);
  cs.dims.insert(cs.dims.end(), p, p + n);
  delete[] p;
  p = nullptr;
  uint64_t ns = 0;
  st = aclGetViewStrides(t, &p, &ns);
  if (st != 0) ReadFail(arg, elem, names, "aclGetViewStrides", st);
  r.strides_at = static_cast<uint32_t>(cs.dims.size());
  cs.dims.insert(cs.dims.end(), p, p + std::min(ns, n));
  for (uint64_t i = ns; i < n; ++i) cs.dims.push_back(0);
  delete[] p;
  p = nullptr;
  st = aclGetStorageShape(t, &p, &n);
  if (st != 0) ReadFail(arg, elem, names, "aclGetStorageShape", st);
  r.storage_at = static_cast<uint32_t>(cs.dims.size());
  r.sdim = static_cast<uint32_t>(n);
  cs.dims.insert(cs.dims.end(), p, p + n);
  delete[] p;
  if ((st = aclGetViewOffset(t, &r.offset)) != 0) ReadFail(arg, elem, names, "aclGetViewOffset", st);
  if ((st = aclGetDataType(t, &r.dtype)) != 0) ReadFail(arg, elem, names, "aclGetDataType", st);
  if ((st = aclGetFormat(t, &r.format)) != 0) ReadFail(arg, elem, names, "aclGetFormat", st);
  if ((st = aclGetRawTensorAddr(t, &r.addr)) != 0) ReadFail(arg, elem, names, "aclGetRawTensorAddr", st);
}

}  // namespace

void ReadTensor(CallState& cs, const aclTensor* t, uint32_t arg, uint32_t elem, bool in_list,
                const std::vector<std::string>& names) {
  TensorRec r;
  r.user = t;
  r.arg = arg;
  r.elem = elem;
  r.in_list = in_list;
  if (const auto get_view = TensorViewGetter()) {
    // pacl's one-call getter (no allocation, one handle check); the CANN getters below otherwise.
    paclTensorView v;
    const aclnnStatus st = get_view(t, &v);
    if (st != 0) ReadFail(arg, elem, names, "paclGetTensorView", st);
    r.view_at = static_cast<uint32_t>(cs.dims.size());
    r.ndim = static_cast<uint32_t>(v.viewDimsNum);
    cs.dims.insert(cs.dims.end(), v.viewDims, v.viewDims + v.viewDimsNum);
    r.strides_at = static_cast<uint32_t>(cs.dims.size());
    cs.dims.insert(cs.dims.end(), v.strides, v.strides + v.viewDimsNum);
    r.storage_at = static_cast<uint32_t>(cs.dims.size());
    r.sdim = static_cast<uint32_t>(v.storageDimsNum);
    cs.dims.insert(cs.dims.end(), v.storageDims, v.storageDims + v.storageDimsNum);
    r.offset = v.offset;
    r.dtype = static_cast<aclDataType>(v.dataType);
    r.format = static_cast<aclFormat>(v.format);
    r.addr = v.data;
  } else {
    ReadTensorWithGetters(cs, t, r, arg, elem, names);
  }
  // Byte extent of the view, for aliasing.
  const int64_t* view = cs.dims.data() + r.view_at;
  const int64_t* strides = cs.dims.data() + r.strides_at;
  const size_t es = DTypeSize(r.dtype);
  bool empty = false;
  int64_t lo = r.offset, hi = r.offset;
  for (uint32_t i = 0; i < r.ndim; ++i) {
    if (view[i] <= 0) empty = true;
    const int64_t span = (view[i] - 1) * strides[i];
    if (span < 0) lo += span;
    else hi += span;
  }
  if (!empty && r.addr && es > 0) {
    const auto base = reinterpret_cast<uintptr_t>(r.addr);
    r.has_extent = true;
    r.lo = base + static_cast<uintptr_t>(lo * static_cast<int64_t>(es));
    r.hi = base + static_cast<uintptr_t>((hi + 1) * static_cast<int64_t>(es));
  }
  cs.tensors.push_back(r);
}

void BuildKey(CallState& cs, AnyFn phase1, int device, const ArgRef* args, size_t n,
              const std::vector<std::string>& names) {
  cs.Reset();
  Writer w(cs.key);
  w.Field1(kOp, 0, 0, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(phase1)));
  w.Field1(kDevice, 0, 0, static_cast<uint64_t>(static_cast<int64_t>(device)));
  std::vector<uint64_t> tmp;
  for (size_t k = 0; k < n; ++k) {
    const ArgRef& a = args[k];
    const auto arg = static_cast<uint32_t>(k);
    w.Field1(kArg, arg, 0, static_cast<uint64_t>(a.kind));
    switch (a.kind) {
      case ArgKind::kTensor:
        TensorFields(cs, w, static_cast<const aclTensor*>(a.ptr), arg, 0, names);
        break;
      case ArgKind::kTensorList: {
        w.Field1(kListLen, arg, 0, a.count);
        const auto* ts = static_cast<const aclTensor* const*>(a.ptr);
        for (size_t e = 0; e < a.count; ++e) TensorFields(cs, w, ts[e], arg, static_cast<uint32_t>(e + 1), names);
        break;
      }
      case ArgKind::kScalar: {
        uint64_t v[2] = {static_cast<uint64_t>(static_cast<int64_t>(a.scalar.dtype())), 0};
        std::memcpy(&v[1], a.scalar.data(), 8);
        w.Field(kScalarField, arg, 0, v, 2);
        break;
      }
      case ArgKind::kScalarList: {
        w.Field1(kListLen, arg, 0, a.count);
        const auto* ss = static_cast<const Scalar*>(a.ptr);
        for (size_t e = 0; e < a.count; ++e) {
          uint64_t v[2] = {static_cast<uint64_t>(static_cast<int64_t>(ss[e].dtype())), 0};
          std::memcpy(&v[1], ss[e].data(), 8);
          w.Field(kScalarField, arg, e + 1, v, 2);
        }
        break;
      }
      case ArgKind::kIntArray: {
        const auto* v = static_cast<const int64_t*>(a.ptr);
        w.Dims(kInts, arg, 0, v, a.count);
        break;
      }
      case ArgKind::kFloatArray: {
        const auto* v = static_cast<const float*>(a.ptr);
        tmp.clear();
        for (size_t e = 0; e < a.count; ++e) tmp.push_back(FloatBits(v[e]));
        w.Field(kFloats, arg, 0, tmp.data(), tmp.size());
        break;
      }
      case ArgKind::kBoolArray: {
        const auto* v = static_cast<const bool*>(a.ptr);
        tmp.clear();
        for (size_t e = 0; e < a.count; ++e) tmp.push_back(v[e] ? 1 : 0);
        w.Field(kBools, arg, 0, tmp.data(), tmp.size());
        break;
      }
      case ArgKind::kInt: w.Field1(kIntAttr, arg, a.u64 ? 1 : 0, static_cast<uint64_t>(a.i)); break;
      case ArgKind::kDouble: w.Field1(kDoubleAttr, arg, 0, Bits(a.d)); break;
      case ArgKind::kBool: w.Field1(kBoolAttr, arg, 0, a.i ? 1 : 0); break;
      case ArgKind::kDType: w.Field1(kDTypeAttr, arg, 0, static_cast<uint64_t>(a.i)); break;
      case ArgKind::kString: {
        if (!a.ptr) {
          w.Field(kString, arg, 1, nullptr, 0);
          break;
        }
        const auto* s = static_cast<const char*>(a.ptr);
        const size_t len = std::strlen(s);
        tmp.assign(1 + (len + 7) / 8, 0);
        tmp[0] = len;
        std::memcpy(tmp.data() + 1, s, len);
        w.Field(kString, arg, 0, tmp.data(), tmp.size());
        break;
      }
      default:
        throw Failure{Status(kInner, Phase::kCache, "", "internal: raw handle in a cache key")};
    }
  }
  AliasFields(cs, w);
  w.Finish();
  // One multiply per word; the final mix spreads it over every bit (the shard is chosen by high bits).
  uint64_t h = 0x243F6A8885A308D3ull;
  for (uint64_t v : cs.key) h = (h ^ v) * 0x100000001B3ull;
  cs.hash = Mix(h, cs.key.size());
}

bool SameOp(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  return a.size() >= 2 && b.size() >= 2 && a[0] == b[0] && a[1] == b[1];
}

std::string DescribeDifference(const std::vector<uint64_t>& now, const std::vector<uint64_t>& cached,
                               const std::vector<std::string>& names, size_t* differing) {
  const std::vector<Field> a = Fields(now), b = Fields(cached);
  size_t diff = 0, first = SIZE_MAX;
  const size_t m = std::max(a.size(), b.size());
  for (size_t i = 0; i < m; ++i) {
    const bool same = i < a.size() && i < b.size() && SameField(now, a[i], cached, b[i]);
    if (!same) {
      ++diff;
      if (first == SIZE_MAX) first = i;
    }
  }
  if (differing) *differing = diff;
  if (first == SIZE_MAX) return "identical key";
  const Field* fa = first < a.size() ? &a[first] : nullptr;
  const Field* fb = first < b.size() ? &b[first] : nullptr;
  const Field& f = fa ? *fa : *fb;
  const Tag tag = TagOf(f.header);
  std::string where;
  if (tag == kOp || tag == kDevice) where = "";
  else where = ArgLabel(ArgOf(f.header), ElemOf(f.header), names) + ": ";
  std::string field = FieldName(tag);
  if (tag == kScalarField && fa && fb && TagOf(fb->header) == kScalarField)
    field = now[fa->pos] != cached[fb->pos] ? "scalar dtype" : "scalar value";
  const std::string now_v = fa ? FieldValue(now, *fa, names) : "(absent)";
  std::string cached_v;
  if (fb && TagOf(fb->header) == tag && ArgOf(fb->header) == ArgOf(f.header) && ElemOf(fb->header) == ElemOf(f.header))
    cached_v = FieldValue(cached, *fb, names);
  else if (fb)
    cached_v = std::string(FieldName(TagOf(fb->header))) + " " + FieldValue(cached, *fb, names);
  else
    cached_v = "(absent)";
  if (!fa) return where + field + " differs: now (absent), nearest cached entry " + cached_v;
  return where + field + " " + now_v + " differs from the nearest cached entry (" + cached_v + ")";
}

}  // namespace pacl::rn
