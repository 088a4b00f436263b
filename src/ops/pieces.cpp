#include "ops/pieces.h"

#include <cstring>
#include <stdexcept>

#include "core/convert.h"
#include "core/parallel.h"
#include "ops/elementwise_op.h"

namespace pacl {

std::vector<DimInterval> affine_intervals(const std::vector<int64_t>& map) {
  std::vector<DimInterval> r;
  const int64_t n = static_cast<int64_t>(map.size());
  int64_t i = 0;
  while (i < n) {
    DimInterval iv{i, 1, map[static_cast<size_t>(i)], 0};
    if (iv.first < 0) {
      iv.first = -1;
      while (i + iv.length < n && map[static_cast<size_t>(i + iv.length)] < 0) ++iv.length;
    } else if (i + 1 < n && map[static_cast<size_t>(i + 1)] >= 0) {
      iv.step = map[static_cast<size_t>(i + 1)] - iv.first;
      while (i + iv.length < n && map[static_cast<size_t>(i + iv.length)] >= 0 &&
             map[static_cast<size_t>(i + iv.length)] - map[static_cast<size_t>(i + iv.length - 1)] == iv.step)
        ++iv.length;
    }
    r.push_back(iv);
    i += iv.length;
  }
  return r;
}

PiecePlan::Operand PiecePlan::source(const aclTensor& t) {
  return Operand{p_.strided(t), t.dtype, t.view, t.strides};
}

PiecePlan::Operand PiecePlan::dense_source(const aclTensor& t, DType as) {
  return Operand{p_.input(t, as), as, t.view, contiguous_strides(t.view)};
}

PiecePlan::Operand PiecePlan::dest(const aclTensor& t, DType as, Access access) {
  return Operand{p_.output(t, as, access), as, t.view, contiguous_strides(t.view)};
}

void PiecePlan::add(Piece p) {
  for (int64_t d : p.shape)
    if (d == 0) return;
  pieces_.push_back(std::move(p));
}

void PiecePlan::copy(const Operand& dst, int64_t dst_offset, const Dims& dst_strides, const Operand& src,
                     int64_t src_offset, const Dims& src_strides, const Dims& shape) {
  if (dst.dtype != src.dtype && !(is_compute_dtype(dst.dtype) && is_compute_dtype(src.dtype)))
    throw std::logic_error("PiecePlan::copy: a converting copy needs compute dtypes on both sides");
  add(Piece{Kind::kCopy, dst.k, src.k, dst.dtype, src.dtype, dst_offset, src_offset, shape, dst_strides, src_strides, {}});
}

void PiecePlan::fill(const Operand& dst, int64_t offset, const Dims& strides, const Dims& shape,
                     const std::array<unsigned char, 16>& value) {
  add(Piece{Kind::kFill, dst.k, -1, dst.dtype, dst.dtype, offset, 0, shape, strides, Dims(shape.size(), 0), value});
}

void PiecePlan::accumulate(const Operand& dst, int64_t dst_offset, const Dims& dst_strides, const Operand& src,
                           int64_t src_offset, const Dims& src_strides, const Dims& shape) {
  if (dst.dtype != src.dtype || (dst.dtype != DType::kFloat && dst.dtype != DType::kDouble))
    throw std::logic_error("PiecePlan::accumulate: both sides must be float or double");
  add(Piece{Kind::kAccumulate, dst.k, src.k, dst.dtype, src.dtype, dst_offset, src_offset, shape, dst_strides,
            src_strides, {}});
}

namespace {

// Calls f(dst_offset, src_offset, shape_index_product) over the product of the maps' intervals.
template <typename F>
void for_each_interval_product(const std::vector<std::vector<int64_t>>& maps, const Dims& dst_strides,
                               const Dims& src_strides, F&& f) {
  const size_t rank = maps.size();
  std::vector<std::vector<DimInterval>> iv(rank);
  for (size_t d = 0; d < rank; ++d) {
    iv[d] = affine_intervals(maps[d]);
    if (iv[d].empty()) return;
  }
  std::vector<size_t> at(rank, 0);
  while (true) {
    int64_t doff = 0, soff = 0;
    bool constant = false;
    Dims shape(rank), ss(rank);
    for (size_t d = 0; d < rank; ++d) {
      const DimInterval& v = iv[d][at[d]];
      shape[d] = v.length;
      doff += v.begin * dst_strides[d];
      if (v.first < 0) constant = true;
      else soff += v.first * src_strides[d];
      ss[d] = v.step * src_strides[d];
    }
    f(doff, soff, shape, ss, constant);
    size_t d = rank;
    while (d > 0) {
      if (++at[d - 1] < iv[d - 1].size()) break;
      at[d - 1] = 0;
      --d;
    }
    if (d == 0) return;
  }
}

}  // namespace

void PiecePlan::gather(const Operand& dst, const Operand& src, const std::vector<std::vector<int64_t>>& maps,
                       const std::array<unsigned char, 16>& fill_value) {
  if (maps.empty()) {  // 0-d: one element
    copy(dst, 0, {}, src, 0, {}, {});
    return;
  }
  for_each_interval_product(maps, dst.strides, src.strides,
                            [&](int64_t doff, int64_t soff, const Dims& shape, const Dims& ss, bool constant) {
                              if (constant) fill(dst, doff, dst.strides, shape, fill_value);
                              else copy(dst, doff, dst.strides, src, soff, ss, shape);
                            });
}

void PiecePlan::scatter_add(const Operand& grad_in, const Operand& grad_out,
                            const std::vector<std::vector<int64_t>>& maps) {
  if (maps.empty()) {
    accumulate(grad_in, 0, {}, grad_out, 0, {}, {});
    return;
  }
  for_each_interval_product(maps, grad_out.strides, grad_in.strides,
                            [&](int64_t goff, int64_t ioff, const Dims& shape, const Dims& is, bool constant) {
                              if (!constant) accumulate(grad_in, ioff, is, grad_out, goff, grad_out.strides, shape);
                            });
}

namespace {

template <typename T>
void accumulate_strided(const Dims& shape, T* dst, const Dims& ds, const T* src, const Dims& ss) {
  const size_t rank = shape.size();
  if (rank == 0) {
    *dst += *src;
    return;
  }
  const int64_t inner = shape[rank - 1], di = ds[rank - 1], si = ss[rank - 1];
  Dims idx(rank, 0);
  while (true) {
    int64_t doff = 0, soff = 0;
    for (size_t k = 0; k + 1 < rank; ++k) {
      doff += idx[k] * ds[k];
      soff += idx[k] * ss[k];
    }
    T* d = dst + doff;
    const T* s = src + soff;
    for (int64_t i = 0; i < inner; ++i) d[i * di] += s[i * si];
    size_t k = rank - 1;
    while (k > 0) {
      if (++idx[k - 1] < shape[k - 1]) break;
      idx[k - 1] = 0;
      --k;
    }
    if (k == 0) return;
  }
}

}  // namespace

namespace {

int64_t piece_numel(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace

void PiecePlan::finish(const std::string& name, Order order) {
  std::vector<Piece> units;
  int64_t total = 0;
  bool accumulates = false;
  for (const Piece& p : pieces_) {
    total += piece_numel(p.shape);
    accumulates |= p.kind == Kind::kAccumulate;
  }
  constexpr int64_t kParallel = 64 * 1024;
  const bool split = order == Order::kDisjoint && !accumulates && total >= kParallel;
  if (split) {  // cut big pieces along one dim into units of about `target` elements
    const int64_t target = std::max<int64_t>(16 * 1024, total / (4 * max_threads()));
    for (const Piece& p : pieces_) {
      const int64_t n = piece_numel(p.shape);
      const int64_t want = (n + target - 1) / target;
      size_t dim = p.shape.size();  // the outermost dim long enough, else the longest
      for (size_t k = 0; k < p.shape.size() && dim == p.shape.size(); ++k)
        if (p.shape[k] >= want) dim = k;
      if (dim == p.shape.size())
        for (size_t k = dim = 0; k < p.shape.size(); ++k)
          if (p.shape[k] > p.shape[dim]) dim = k;
      const int64_t parts = p.shape.empty() ? 1 : std::min(want, p.shape[dim]);
      if (parts <= 1) {
        units.push_back(p);
        continue;
      }
      const int64_t ext = p.shape[dim], step = (ext + parts - 1) / parts;
      for (int64_t at = 0; at < ext; at += step) {
        Piece u = p;
        u.shape[dim] = std::min(step, ext - at);
        u.dst_offset += at * p.dst_strides[dim];
        u.src_offset += at * p.src_strides[dim];
        units.push_back(std::move(u));
      }
    }
  } else {
    units = pieces_;
  }
  p_.finish(name, [units = std::move(units), split](const DenseArgs& a) {
    auto run = [&](const Piece& p) {
      const int64_t dsz = static_cast<int64_t>(dtype_size(p.dst_t)), ssz = static_cast<int64_t>(dtype_size(p.src_t));
      char* dst = static_cast<char*>(a.ptr(p.dst)) + p.dst_offset * dsz;
      switch (p.kind) {
        case Kind::kFill:
          copy_strided(p.shape, p.dst_t, dst, p.dst_strides, p.dst_t, p.value.data(), p.src_strides);
          break;
        case Kind::kCopy:
          copy_strided(p.shape, p.dst_t, dst, p.dst_strides, p.src_t,
                       static_cast<const char*>(a.ptr(p.src)) + p.src_offset * ssz, p.src_strides);
          break;
        case Kind::kAccumulate: {
          const char* src = static_cast<const char*>(a.ptr(p.src)) + p.src_offset * ssz;
          if (p.dst_t == DType::kFloat)
            accumulate_strided(p.shape, reinterpret_cast<float*>(dst), p.dst_strides,
                               reinterpret_cast<const float*>(src), p.src_strides);
          else
            accumulate_strided(p.shape, reinterpret_cast<double*>(dst), p.dst_strides,
                               reinterpret_cast<const double*>(src), p.src_strides);
          break;
        }
      }
    };
    if (split && units.size() > 1) {  // copies inside run inline (nested parallel_for)
      parallel_for(static_cast<int64_t>(units.size()), 1, [&](int64_t from, int64_t to, int) {
        for (int64_t u = from; u < to; ++u) run(units[static_cast<size_t>(u)]);
      });
    } else {
      for (const Piece& p : units) run(p);
    }
  });
}

std::array<unsigned char, 16> element_bytes(DType t, const aclScalar& s) {
  std::array<unsigned char, 16> r{};
  auto put = [&](auto v) { std::memcpy(r.data(), &v, sizeof v); };
  if (is_compute_dtype(t) && is_compute_dtype(s.dtype)) {
    visit_dtype(t, [&](auto tag) { put(scalar_value<typename decltype(tag)::type>(s)); });
    return r;
  }
  switch (t) {
    case DType::kUInt16: put(static_cast<uint16_t>(s.to_int64())); break;
    case DType::kUInt32: put(static_cast<uint32_t>(s.to_int64())); break;
    case DType::kUInt64: put(static_cast<uint64_t>(s.to_int64())); break;
    case DType::kComplex64: put(static_cast<float>(s.to_double())); break;
    case DType::kComplex128: put(s.to_double()); break;
    default:
      if (is_compute_dtype(t)) {
        aclScalar d;
        d.dtype = DType::kDouble;
        const double v = is_floating(s.dtype) ? s.to_double() : static_cast<double>(s.to_int64());
        std::memcpy(d.bytes, &v, sizeof v);
        if (!is_floating(s.dtype)) {  // keep integers exact
          d.dtype = DType::kInt64;
          const int64_t iv = s.to_int64();
          std::memcpy(d.bytes, &iv, sizeof iv);
        }
        return element_bytes(t, d);
      }
      throw std::logic_error("element_bytes: dtype without a value representation");
  }
  return r;
}

std::array<unsigned char, 16> element_bytes(DType t, double v) {
  aclScalar s;
  s.dtype = DType::kDouble;
  std::memcpy(s.bytes, &v, sizeof v);
  return element_bytes(t, s);
}

}  // namespace pacl
