// Constructors: Arange, Range, Linspace, Eye. Sequences are computed in double (int64 when every
// argument is an integer, so large integer ranges stay exact) and converted once to out's dtype;
// Linspace follows PyTorch's two-sided formula (start + i*step for the first half, end - (n-1-i)*step
// for the second), in float for the 16/32-bit float outputs and in double otherwise. Eye is two
// fill pieces (zeros, then ones on the diagonal view).
#include <cmath>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_range.h"
#include "core/convert.h"
#include "core/dense.h"
#include "core/parallel.h"
#include "core/phase.h"
#include "ops/movement.h"
#include "ops/pieces.h"
#include "ops/registry.h"

namespace pacl {
namespace {

constexpr DTypeMask kScalarTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kDouble, DType::kUInt8, DType::kInt8,
                                               DType::kInt16, DType::kInt32, DType::kInt64, DType::kBool, DType::kBFloat16});
constexpr DTypeMask kRangeOutTypes =
    dtype_mask({DType::kFloat16, DType::kFloat, DType::kDouble, DType::kInt32, DType::kInt64, DType::kBFloat16});

// Writes f(i) (a double or an int64) converted to out's dtype into the dense out, in parallel.
template <typename F>
void plan_sequence(OpBuilder& b, const aclTensor& out, const std::string& name, F f) {
  if (out.numel() == 0) return;
  DensePlan p(b);
  const int dst = p.output(out, out.dtype);
  const int64_t n = out.numel();
  const DType t = out.dtype;
  p.finish(name, [=](const DenseArgs& a) {
    visit_dtype(t, [&](auto tag) {
      using S = typename decltype(tag)::type;
      S* o = a.out<S>(dst);
      parallel_for(n, 16384, [&](int64_t from, int64_t to, int) {
        for (int64_t i = from; i < to; ++i) o[i] = convert_value<S>(f(i));
      });
    });
  });
}

void check_finite(const aclScalar& s, const char* name) {
  if (is_floating(s.dtype) && !std::isfinite(s.to_double()))
    invalid("{} is {}, expected a finite value", name, s.describe());
}

// Arange (end excluded) and Range (end included).
void plan_range(OpBuilder& b, bool inclusive, const aclScalar* start_arg, const aclScalar* end_arg,
                const aclScalar* step_arg, const aclTensor* out_arg) {
  const aclScalar& start = b.scalar(start_arg, "start");
  const aclScalar& end = b.scalar(end_arg, "end");
  const aclScalar& step = b.scalar(step_arg, "step");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "start", start.dtype, kScalarTypes);
  check_dtype_in(b.op(), "end", end.dtype, kScalarTypes);
  check_dtype_in(b.op(), "step", step.dtype, kScalarTypes);
  check_dtype_in(b.op(), "out", out.dtype, kRangeOutTypes);
  check_finite(start, "start");
  check_finite(end, "end");
  check_finite(step, "step");
  if (step.dtype == DType::kBool && !step.to_bool()) invalid("step is bool(false), expected true (a bool step is 1)");
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  if (st == 0) invalid("step is {}, expected a nonzero step", step.describe());
  if ((st > 0 && s > e) || (st < 0 && s < e))
    invalid("start {} and end {} are inconsistent with the sign of step {}", start.describe(), end.describe(),
            step.describe());
  const bool integral = !is_floating(start.dtype) && !is_floating(end.dtype) && !is_floating(step.dtype);
  int64_t n;
  if (integral) {  // exact
    const int64_t a = start.to_int64(), z = end.to_int64(), d = step.to_int64();
    const int64_t span = z - a;
    n = inclusive ? span / d + 1 : (span / d) + (span % d != 0 ? 1 : 0);
  } else {
    const double q = (e - s) / st;
    if (q > 9.0e18) invalid("the range [{}, {}) by {} has too many elements", s, e, st);
    n = static_cast<int64_t>(inclusive ? std::floor(q) + 1 : std::ceil(q));
    // CANN's note: float arguments may size the range in float; accept that size too.
    const float qf = (static_cast<float>(e) - static_cast<float>(s)) / static_cast<float>(st);
    const int64_t nf = static_cast<int64_t>(inclusive ? std::floor(qf) + 1 : std::ceil(qf));
    if (out.dim() == 1 && out.view[0] == nf && nf != n) n = nf;
  }
  check_shape_equals(out, "out", {n}, inclusive ? "the range's shape" : "the arange's shape");
  const std::string name = std::string(inclusive ? "range." : "arange.") + dtype_name(out.dtype);
  if (integral && !is_floating(out.dtype)) {
    const int64_t a = start.to_int64(), d = step.to_int64();
    plan_sequence(b, out, name, [=](int64_t i) { return a + i * d; });
  } else {
    plan_sequence(b, out, name, [=](int64_t i) { return s + static_cast<double>(i) * st; });
  }
}

constexpr DTypeMask kLinspaceOutTypes = dtype_mask({DType::kInt8, DType::kInt16, DType::kInt32, DType::kUInt8, DType::kFloat,
                                                    DType::kFloat16, DType::kDouble, DType::kBFloat16});

void plan_linspace(OpBuilder& b, const aclScalar* start_arg, const aclScalar* end_arg, int64_t steps,
                   const aclTensor* out_arg) {
  const aclScalar& start = b.scalar(start_arg, "start");
  const aclScalar& end = b.scalar(end_arg, "end");
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "start", start.dtype, kScalarTypes);
  check_dtype_in(b.op(), "end", end.dtype, kScalarTypes);
  check_dtype_in(b.op(), "out", out.dtype, kLinspaceOutTypes);
  if (steps < 0) invalid("steps is {}, expected a number of values >= 0", steps);
  if (out.numel() != steps) invalid("out {} has {} elements, expected steps = {}", dims_str(out.view), out.numel(), steps);
  const double s = start.to_double(), e = end.to_double();
  const int64_t half = steps == 1 ? 1 : steps / 2;  // one value: start
  const std::string name = std::string("linspace.") + dtype_name(out.dtype);
  if (out.dtype == DType::kFloat || out.dtype == DType::kFloat16 || out.dtype == DType::kBFloat16) {
    const float fs = static_cast<float>(s), fe = static_cast<float>(e);
    const float step = steps > 1 ? (fe - fs) / static_cast<float>(steps - 1) : 0.0f;
    plan_sequence(b, out, name, [=](int64_t i) {
      return i < half ? fs + step * static_cast<float>(i) : fe - step * static_cast<float>(steps - 1 - i);
    });
  } else {
    const double step = steps > 1 ? (e - s) / static_cast<double>(steps - 1) : 0.0;
    plan_sequence(b, out, name, [=](int64_t i) {
      return i < half ? s + step * static_cast<double>(i) : e - step * static_cast<double>(steps - 1 - i);
    });
  }
}

constexpr DTypeMask kEyeTypes = dtype_mask({DType::kFloat16, DType::kFloat, DType::kInt32, DType::kInt16, DType::kInt8,
                                            DType::kUInt8, DType::kInt64, DType::kBool, DType::kBFloat16});

void plan_eye(OpBuilder& b, int64_t n, int64_t m, const aclTensor* out_arg) {
  const aclTensor& out = b.output(out_arg, "out");
  check_dtype_in(b.op(), "out", out.dtype, kEyeTypes);
  if (n < 0) invalid("n is {}, expected a size >= 0", n);
  if (m < 0) invalid("m is {}, expected a size >= 0", m);
  check_rank_between(out, "out", 2, 2);
  check_shape_equals(out, "out", {n, m}, "[n, m]");
  if (out.numel() == 0) return;
  PiecePlan pp(b);
  const PiecePlan::Operand dst = pp.dest(out);
  pp.fill_zero(dst, 0, {1}, {n * m});
  pp.fill(dst, 0, {m + 1}, {std::min(n, m)}, element_bytes(out.dtype, 1.0));
  pp.finish(std::string("eye.") + dtype_name(out.dtype));
}

}  // namespace
}  // namespace pacl

using pacl::OpBuilder;

extern "C" aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end, const aclScalar* step,
                                                   aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Arange, "aclnnArangeGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_range(b, false, start, end, step, out); });
}

extern "C" aclnnStatus aclnnRangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end, const aclScalar* step,
                                                  aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Range, "aclnnRangeGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_range(b, true, start, end, step, out); });
}

extern "C" aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end, int64_t steps,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Linspace, "aclnnLinspaceGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_linspace(b, start, end, steps, out); });
}

extern "C" aclnnStatus aclnnEyeGetWorkspaceSize(int64_t n, int64_t m, aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return pacl::run_phase1(pacl::op_Eye, "aclnnEyeGetWorkspaceSize", workspaceSize, executor,
                          [&](OpBuilder& b) { pacl::plan_eye(b, n, m, out); });
}
