// The kernels of the pooling ops: DensePlan operands plus a walker call (pool.h) per dtype.
#include <memory>

#include "core/dense.h"
#include "ops/pool_plan.h"

namespace pacl::pool {

namespace {

std::string kernel_name(const OpBuilder& b, const char* what, DType t) {
  return std::string("pool.") + what + "." + b.op().name + "." + dtype_name(t);
}

}  // namespace

// out (and indices) = max pooling of self over the windows of g.
void plan_max_forward(OpBuilder& b, const aclTensor& self, const aclTensor& out, const aclTensor* indices,
                      Geometry g) {
  if (out.numel() == 0 || self.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType ct = pool_compute_dtype(self.dtype);
  const int in = p.input(self, ct);
  const int o = p.output(out, ct);
  const int ix = indices ? p.output(*indices, indices->dtype) : -1;
  auto geo = std::make_shared<const Geometry>(std::move(g));
  const std::string name = kernel_name(b, "max", self.dtype);
  visit_pool_type(ct, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (ix < 0) {
      p.finish(name, [=](const DenseArgs& a) {
        forward<Reduce::kMax, T, int64_t>(*geo, a.in<T>(in), a.out<T>(o), nullptr);
      });
      return;
    }
    visit_index_type(indices->dtype, [&](auto itag) {
      using I = typename decltype(itag)::type;
      p.finish(name, [=](const DenseArgs& a) {
        forward<Reduce::kMax, T, I>(*geo, a.in<T>(in), a.out<T>(o), a.out<I>(ix));
      });
    });
  });
}

// grad_input = scatter of grad_output to the flat positions in indices.
void plan_max_backward(OpBuilder& b, const aclTensor& grad_out, const aclTensor& indices, const aclTensor& grad_in,
                       Geometry g) {
  if (grad_in.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType ct = pool_compute_dtype(grad_in.dtype);
  const int go = p.input(grad_out, ct);
  const int ix = p.input(indices, indices.dtype);
  const int gi = p.output(grad_in, ct);
  auto geo = std::make_shared<const Geometry>(std::move(g));
  const std::string name = kernel_name(b, "max_backward", grad_in.dtype);
  visit_float_type(ct, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_index_type(indices.dtype, [&](auto itag) {
      using I = typename decltype(itag)::type;
      p.finish(name, [=](const DenseArgs& a) { max_backward<T, I>(*geo, a.in<T>(go), a.in<I>(ix), a.out<T>(gi)); });
    });
  });
}

void plan_avg_forward(OpBuilder& b, const aclTensor& self, const aclTensor& out, Geometry g, const AvgOptions& opt) {
  if (out.numel() == 0 || self.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType ct = pool_compute_dtype(self.dtype);
  const int in = p.input(self, ct);
  const int o = p.output(out, ct);
  auto geo = std::make_shared<const Geometry>(std::move(g));
  visit_float_type(ct, [&](auto tag) {
    using T = typename decltype(tag)::type;
    p.finish(kernel_name(b, "avg", self.dtype), [=](const DenseArgs& a) {
      forward<Reduce::kAvg, T, int64_t>(*geo, a.in<T>(in), a.out<T>(o), nullptr, opt);
    });
  });
}

void plan_avg_backward(OpBuilder& b, const aclTensor& grad_out, const aclTensor& grad_in, Geometry g,
                       const AvgOptions& opt) {
  if (grad_in.numel() == 0) return;
  DensePlan p(b);
  p.separate_outputs();
  const DType ct = pool_compute_dtype(grad_in.dtype);
  const int go = p.input(grad_out, ct);
  const int gi = p.output(grad_in, ct);
  auto geo = std::make_shared<const Geometry>(std::move(g));
  visit_float_type(ct, [&](auto tag) {
    using T = typename decltype(tag)::type;
    p.finish(kernel_name(b, "avg_backward", grad_in.dtype), [=](const DenseArgs& a) {
      avg_backward<T>(*geo, a.in<T>(go), a.out<T>(gi), opt);
    });
  });
}

}  // namespace pacl::pool
