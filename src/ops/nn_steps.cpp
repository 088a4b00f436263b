#include "ops/nn_steps.h"

#include <algorithm>

#include "core/convert.h"
#include "core/parallel.h"

namespace pacl::nn {

namespace {

class StepKernel final : public Kernel {
 public:
  StepKernel(std::string name, std::vector<std::function<void(const StepArgs&)>> steps)
      : name_(std::move(name)), steps_(std::move(steps)) {}
  std::string name() const override { return name_; }
  void run(void* const* data, void* workspace) const override {
    const StepArgs a(data, static_cast<char*>(workspace));
    for (const auto& s : steps_) s(a);
  }

 private:
  std::string name_;
  std::vector<std::function<void(const StepArgs&)>> steps_;
};

constexpr int64_t kSumBlock = 4096;

template <typename T>
double sum_impl(const T* p, int64_t n, double* partials) {
  const int64_t blocks = sum_blocks(n);
  parallel_for(blocks, 16, [&](int64_t b0, int64_t b1, int) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t lo = b * kSumBlock, hi = std::min(n, lo + kSumBlock);
      // Four interleaved accumulators: vectorizes, and keeps the error of long sums small.
      double s[4] = {0, 0, 0, 0};
      int64_t i = lo;
      for (; i + 4 <= hi; i += 4)
        for (int j = 0; j < 4; ++j) s[j] += static_cast<double>(p[i + j]);
      for (; i < hi; ++i) s[0] += static_cast<double>(p[i]);
      partials[b] = (s[0] + s[1]) + (s[2] + s[3]);
    }
  });
  double total = 0;
  for (int64_t b = 0; b < blocks; ++b) total += partials[b];
  return total;
}

}  // namespace

View StepPlan::tensor(const aclTensor& t, int64_t offset) const {
  const int slot = b_.slot_of(t);
  if (slot < 0) throw std::logic_error("StepPlan: tensor is not a slot of the op");
  return View{Ref{slot, offset * static_cast<int64_t>(t.elem_size())}, t.dtype, t.strides};
}

View StepPlan::broadcast(const aclTensor& t, const Dims& shape) const {
  View v = tensor(t);
  v.strides = broadcast_strides(t, shape);
  return v;
}

View StepPlan::buffer(DType dtype, const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const size_t at = booking_.book(static_cast<size_t>(n) * dtype_size(dtype));
  return View{Ref{Ref::kWorkspace, static_cast<int64_t>(at)}, dtype, contiguous_strides(shape)};
}

View StepPlan::dense_input(const aclTensor& t, DType as) {
  if (t.dtype == as && t.is_contiguous()) return tensor(t).with_strides(contiguous_strides(t.view));
  const View buf = buffer(as, t.view);
  const View src = tensor(t);
  const Dims shape = t.view;
  const DType from = t.dtype;
  step([=](const StepArgs& a) {
    copy_strided(shape, as, a.ptr(buf.ref), buf.strides, from, a.ptr(src.ref), src.strides);
  });
  return buf;
}

View StepPlan::dense_output(const aclTensor& t, DType as, bool read) {
  if (t.dtype == as && t.is_contiguous()) return tensor(t).with_strides(contiguous_strides(t.view));
  const View buf = buffer(as, t.view);
  const View dst = tensor(t);
  const Dims shape = t.view;
  const DType to = t.dtype;
  if (read)
    step([=](const StepArgs& a) {
      copy_strided(shape, as, a.ptr(buf.ref), buf.strides, to, a.ptr(dst.ref), dst.strides);
    });
  final_.push_back([=](const StepArgs& a) {
    copy_strided(shape, to, a.ptr(dst.ref), dst.strides, as, a.ptr(buf.ref), buf.strides);
  });
  return buf;
}

void StepPlan::finish(const std::string& name) {
  for (auto& f : final_) steps_.push_back(std::move(f));
  final_.clear();
  if (steps_.empty()) {
    b_.set_kernel(nullptr);
    return;
  }
  b_.set_kernel(std::make_shared<StepKernel>(name, std::move(steps_)), booking_.total());
}

int64_t sum_blocks(int64_t n) { return std::max<int64_t>(1, (n + kSumBlock - 1) / kSumBlock); }
double sum_dense(const float* p, int64_t n, double* partials) { return sum_impl(p, n, partials); }
double sum_dense(const double* p, int64_t n, double* partials) { return sum_impl(p, n, partials); }

void store_double(DType t, void* dst, double v) { convert_strided(t, dst, 1, DType::kDouble, &v, 1, 1); }

}  // namespace pacl::nn
