// Shared machinery of the index family (gather, scatter, index_put, take, embedding, ...).
//
// Every index op plans on a DensePlan: index tensors are read as dense int64 arrays (int32 indices
// are widened), data tensors as dense arrays of their own dtype (any storable dtype: gathers and
// plain scatters move elements by size, they never convert). Two walks serve all of them:
//   - rows: a tensor seen as [outer, rows, inner]; a 1-D index picks rows along the middle axis
//     (IndexSelect, GatherV2/V3, Embedding, Take, GatherNd, IndexCopy/Add/Fill, Put, ScatterNd, ...);
//   - elements: an index tensor of the data's rank picks, for every position, the coordinate along
//     one dim (Gather, Scatter, ScatterAdd, ScatterReduce).
// Index values are only known at run time. They are checked before anything is written; a bad one
// throws inside the kernel, and the stream reports the failure at the next synchronize (phase 2
// has already returned). Nothing outside a tensor's extent is ever read or written.
#pragma once

#include <cstdint>
#include <string>

#include "core/dense.h"
#include "ops/elementwise_op.h"

namespace pacl {

inline constexpr DTypeMask kIndexDTypes = dtype_mask({DType::kInt32, DType::kInt64});
inline constexpr DTypeMask kComplexTypes = dtype_mask({DType::kComplex64, DType::kComplex128});
inline constexpr DTypeMask kUnsignedWideTypes = dtype_mask({DType::kUInt16, DType::kUInt32, DType::kUInt64});

// How index values outside [0, size) are treated at run time.
enum class IndexRule {
  kNonNegative,  // [0, size) only (IndexSelect, GatherV2, Embedding, ...)
  kWrap,         // [-size, size), negatives count from the end (Gather, Take, Index, ...)
};

inline int64_t wrap_index(int64_t i, int64_t size) { return i < 0 ? i + size : i; }

// "[1, 2]": the multi-index of linear position `pos` in a row-major `shape` ("[7]" for 1-D).
std::string position_str(const Dims& shape, int64_t pos);

// Run-time check of n index values: throws InvalidArgument("aclnn<op>: <arg>[pos] is v, expected
// a value in [lo, size) (<what> is size)") for the first one outside the range `rule` allows.
void check_index_values(const char* op, const char* arg, const Dims& idx_shape, const int64_t* idx, int64_t n,
                        int64_t size, IndexRule rule, const std::string& what);

// Tuples of c coordinates (idx holds n tuples, c values each, from a tensor of shape idx_shape)
// into linear row numbers of shape[0..c): rows[j] = sum_k wrap(idx[j*c+k]) * prod(shape[k+1..c)).
// Checks every coordinate at run time as check_index_values does (what: "<what>.shape[k]").
void linearize_tuples(const char* op, const char* arg, const Dims& idx_shape, const int64_t* idx, int64_t n,
                      int64_t c, const Dims& shape, IndexRule rule, const char* what, int64_t* rows);

// ---- row walk -------------------------------------------------------------------------------------
// src is [outer, src_rows, inner], dst is [outer, dst_rows, inner] (dense, row-major). Index j of a
// group names a row. `groups` index groups of n values each: outer position o uses group
// o / (outer / groups) (groups = 1: every o shares one index; GatherV3's batch dims use more).
struct RowWalk {
  int64_t outer = 1, src_rows = 1, dst_rows = 1, inner = 1;
  const int64_t* idx = nullptr;
  int64_t n = 0;
  int64_t groups = 1;
};

// dst[o, j, :] = src[o, wrap(idx[j]), :]  (dst_rows == n). Elements of `esize` bytes.
void gather_rows(size_t esize, const void* src, void* dst, const RowWalk& w);
// dst[o, wrap(idx[j]), :] = src[o, j, :]  (src_rows == n); a repeated index: the last j wins.
void scatter_rows(size_t esize, const void* src, void* dst, const RowWalk& w);

// dst[o, wrap(idx[j]), :] = value (esize bytes) for every j whose index is inside [-rows, rows)
// (kWrap) or [0, rows); others are skipped (IndexFill).
void fill_rows(size_t esize, const void* value, void* dst, const RowWalk& w, IndexRule rule);

// Reductions of a scatter into its destination.
enum class Reduce { kNone, kAdd, kMul, kMax, kMin, kMean };
const char* reduce_name(Reduce r);

// dst[o, wrap(idx[j]), :] = dst ⊕ alpha·src[o, j, :] in dtype t (a compute dtype other than the
// 16-bit floats, or complex64/complex128; callers widen float16/bfloat16 to float32 through the
// DensePlan so that rounding happens once). alpha: one value of t's arithmetic type, used by kAdd
// only (nullptr: 1). Index values are combined in order, so results are deterministic.
void scatter_rows_reduce(DType t, Reduce r, const void* src, void* dst, const RowWalk& w, const void* alpha);

// dst[i] += src[i] for i < n, in dtype t (as scatter_rows_reduce).
void accumulate_into(DType t, void* dst, const void* src, int64_t n);

// ---- element walk ---------------------------------------------------------------------------------
// The index tensor has shape `ishape` (rank r) and is dense. For every position p of ishape:
//   gather:  out[p] = data[p with p[dim] := idx[p]]      (out dense over ishape)
//   scatter: data[p with p[dim] := idx[p]] ⊕= src[p]     (src dense with shape sshape >= ishape)
// data is dense with shape dshape (dshape[k] >= ishape[k] for k != dim).
struct ElementWalk {
  Dims ishape, dshape, sshape;
  int64_t dim = 0;
  const int64_t* idx = nullptr;
};

void gather_elements(size_t esize, const void* data, void* out, const ElementWalk& w);
// src == nullptr: `value` (a single element of the data's dtype, esize bytes) is scattered instead.
void scatter_elements(size_t esize, const void* src, const void* value, void* data, const ElementWalk& w);
// Reducing scatter in dtype t (as scatter_rows_reduce). With a kMean reduction, `counts` (int64,
// one per data element, zeroed by the caller) receives how many src values reached each position;
// finish_mean then divides. include_self = false: a position's first src value replaces its old
// value instead of being combined with it (needs `first`: one byte per data element, zeroed).
void scatter_elements_reduce(DType t, Reduce r, const void* src, const void* value, void* data,
                             const ElementWalk& w, int64_t* counts, uint8_t* first);
// data[k] /= (counts[k] + (include_self ? 1 : 0)) where counts[k] > 0 (integers: floor division).
void finish_mean(DType t, void* data, const int64_t* counts, int64_t n, bool include_self);

// The Reduce code of ScatterReduce/Scatter (0 none, 1 add, 2 mul, 3 max, 4 min, 5 mean), checked.
Reduce reduce_from_code(int64_t code, int64_t max_code, const char* arg);

// The dtype a reduction computes in for stored dtype t: float16/bfloat16 widen to float32.
inline DType reduce_compute_dtype(DType t) { return arithmetic_dtype(t); }

}  // namespace pacl
