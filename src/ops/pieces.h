// Data movement as a list of strided region copies ("pieces"), the one mechanism behind the layout
// ops of the movement family. An op describes its result as regions: each piece copies a strided
// region of a source operand (or a constant) into a strided region of a destination:
//   dst[dst_offset + sum_k i_k * dst_strides[k]] = src[src_offset + sum_k i_k * src_strides[k]]
// for every index i of `shape`, offsets and strides in elements relative to the operand's element
// [0..0]. A view op is one piece (Expand: stride 0; Flip: stride -s; Slice: offset + step * s;
// Repeat: out seen as [r0, s0, r1, s1, ...] with source strides [0, st0, 0, st1, ...]); a join or
// split is one piece per tensor; Roll and the reflection / replication / circular pads split each
// dim into the few intervals on which the index map is affine (see DimMap) and take their product.
// Accumulating pieces (dst += src) give the backward of the same maps.
//
// Sources are read where they lie (any strides, dtype as stored) or as a dense copy (when a
// reshape of an arbitrary view is needed); destinations are dense (the DensePlan buffers and
// copies back a non-contiguous or overlapping output). Each copy runs through copy_strided, so it
// converts between compute dtypes and moves any other storable dtype by size.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dense.h"

namespace pacl {

// Per-dim index map of a separable gather: out index i reads source index map(i), or the constant
// when map(i) == -1. Cut into maximal intervals on which map(i) = first + step * (i - begin).
struct DimInterval {
  int64_t begin, length;  // in the output dim
  int64_t first, step;    // source index of `begin` (-1: constant), source step per output step
};
std::vector<DimInterval> affine_intervals(const std::vector<int64_t>& map);

class PiecePlan {
 public:
  struct Operand {
    int k = -1;  // DenseArgs index
    DType dtype = DType::kFloat;
    Dims shape, strides;  // the strides the body sees
  };

  // Outputs overlapping an input are buffered (the pieces of one op may read what another writes).
  explicit PiecePlan(OpBuilder& b) : p_(b) { p_.separate_outputs(); }

  // Add every source before the first destination.
  Operand source(const aclTensor& t);                 // strided, as stored
  Operand dense_source(const aclTensor& t, DType as);  // a dense copy in dtype `as`
  Operand dest(const aclTensor& t, DType as, Access access = Access::kWrite);  // dense
  Operand dest(const aclTensor& t) { return dest(t, t.dtype); }

  void copy(const Operand& dst, int64_t dst_offset, const Dims& dst_strides, const Operand& src, int64_t src_offset,
            const Dims& src_strides, const Dims& shape);
  // dst region = value (bytes of one element of dst's dtype).
  void fill(const Operand& dst, int64_t offset, const Dims& strides, const Dims& shape,
            const std::array<unsigned char, 16>& value);
  void fill_zero(const Operand& dst, int64_t offset, const Dims& strides, const Dims& shape) {
    fill(dst, offset, strides, shape, {});
  }
  // dst region += src region; both of dtype float or double (a dense compute destination). Pieces
  // run in order, each sequentially, so several source elements may add into one destination.
  void accumulate(const Operand& dst, int64_t dst_offset, const Dims& dst_strides, const Operand& src,
                  int64_t src_offset, const Dims& src_strides, const Dims& shape);

  // The gather out[i] = src[map_0(i_0), ..., map_n(i_n)] (constant `fill` where a map gives -1),
  // as the product of the maps' affine intervals. dst and src have the same rank as maps.
  void gather(const Operand& dst, const Operand& src, const std::vector<std::vector<int64_t>>& maps,
              const std::array<unsigned char, 16>& fill = {});
  // The adjoint of gather: src_grad[map(i)] += dst_grad[i] (entries -1 dropped); grad_in must have
  // been zero-filled (or hold what to add to).
  void scatter_add(const Operand& grad_in, const Operand& grad_out, const std::vector<std::vector<int64_t>>& maps);

  // kInOrder: pieces run one after another (a later piece may overwrite an earlier one: fill,
  // then copy a diagonal); kDisjoint: they write disjoint regions, so the whole list is cut into
  // units of similar size run in one parallel region.
  enum class Order { kInOrder, kDisjoint };
  void finish(const std::string& name, Order order = Order::kInOrder);
  DensePlan& dense() { return p_; }

 private:
  enum class Kind { kCopy, kFill, kAccumulate };
  struct Piece {
    Kind kind;
    int dst, src;
    DType dst_t, src_t;
    int64_t dst_offset, src_offset;
    Dims shape, dst_strides, src_strides;
    std::array<unsigned char, 16> value;
  };
  void add(Piece p);
  DensePlan p_;
  std::vector<Piece> pieces_;
};

// One element of dtype t holding the scalar's value (PyTorch's conversion), for fills.
std::array<unsigned char, 16> element_bytes(DType t, const aclScalar& s);
std::array<unsigned char, 16> element_bytes(DType t, double v);

}  // namespace pacl
