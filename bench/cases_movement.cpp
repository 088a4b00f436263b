// Movement cases (issue: Permute of [4096, 4096] f32 and Cat of 8 tensors at >= 0.8x the same-run
// memory bandwidth): pacl's full synchronous call next to the copy probe of the same bytes (read +
// write) and PyTorch (permute().contiguous() into a preallocated out, at::cat_out).
#include <memory>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_permute.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

struct PermuteOperands {
  explicit PermuteOperands(int64_t n) : self(ACL_FLOAT, {n, n}), out(ACL_FLOAT, {n, n}) {
    const int64_t d[2] = {1, 0};
    dims = aclCreateIntArray(d, 2);
  }
  ~PermuteOperands() { aclDestroyIntArray(dims); }
  DeviceTensor self, out;
  aclIntArray* dims = nullptr;
};

// `count` tensors of [rows, cols] joined along `dim`.
struct CatOperands {
  CatOperands(int count, int64_t rows, int64_t cols, int64_t dim)
      : out(ACL_FLOAT, dim == 0 ? std::vector<int64_t>{rows * count, cols} : std::vector<int64_t>{rows, cols * count}) {
    std::vector<aclTensor*> items;
    for (int i = 0; i < count; ++i) {
      parts.push_back(std::make_unique<DeviceTensor>(ACL_FLOAT, std::vector<int64_t>{rows, cols}, -2.0, 2.0, 10 + i));
      // The list owns its descriptors: give it aliases of the parts.
      const int64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
      items.push_back(aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, parts.back()->data()));
    }
    list = aclCreateTensorList(items.data(), items.size());
  }
  ~CatOperands() { aclDestroyTensorList(list); }
  std::vector<std::unique_ptr<DeviceTensor>> parts;
  DeviceTensor out;
  aclTensorList* list = nullptr;
};

std::vector<Case> movement_cases(Environment& env) {
  std::vector<Case> cases;
  auto add = [&](std::string name, double bytes, std::function<void()> pacl_fn, std::function<void()> torch_fn) {
    Case c{"movement", std::move(name), Unit::kBandwidth, bytes, std::move(pacl_fn), {}};
    c.peers.push_back(Peer{"copy probe, same bytes", copy_probe(env, bytes)});
    if (torch_fn) c.peers.push_back(Peer{"PyTorch", std::move(torch_fn)});
    cases.push_back(std::move(c));
  };
  std::function<void()> none;
  for (int64_t n : {int64_t{1024}, int64_t{4096}}) {
    auto o = std::make_shared<PermuteOperands>(n);
    const double bytes = 2.0 * 4.0 * static_cast<double>(n * n);
    std::function<void()> torch_fn = none;
#ifdef PACL_BENCH_TORCH
    auto ts = std::make_shared<std::pair<at::Tensor, at::Tensor>>(at::rand({n, n}), at::empty({n, n}));
    torch_fn = [ts] { ts->second.copy_(ts->first.permute({1, 0})); };
#endif
    add("Permute f32 [" + std::to_string(n) + "," + std::to_string(n) + "] dims [1,0]", bytes,
        [o, call = op_call(env, "aclnnPermute", [o](uint64_t* w, aclOpExecutor** e) {
           return aclnnPermuteGetWorkspaceSize(o->self.get(), o->dims, o->out.get(), w, e);
         }, aclnnPermute)] { call(); },
        torch_fn);
  }
  struct CatShape {
    int64_t rows, cols, dim;
  };
  for (const CatShape& s : {CatShape{512, 4096, 0}, CatShape{4096, 512, 1}}) {
    auto o = std::make_shared<CatOperands>(8, s.rows, s.cols, s.dim);
    const double bytes = 2.0 * 4.0 * 8.0 * static_cast<double>(s.rows * s.cols);
    std::function<void()> torch_fn = none;
#ifdef PACL_BENCH_TORCH
    auto tp = std::make_shared<std::vector<at::Tensor>>();
    for (int i = 0; i < 8; ++i) tp->push_back(at::rand({s.rows, s.cols}));
    auto tout = std::make_shared<at::Tensor>(s.dim == 0 ? at::empty({8 * s.rows, s.cols}) : at::empty({s.rows, 8 * s.cols}));
    const int64_t dim = s.dim;
    torch_fn = [tp, tout, dim] { at::cat_out(*tout, *tp, dim); };
#endif
    add("Cat f32 8 x [" + std::to_string(s.rows) + "," + std::to_string(s.cols) + "] dim " + std::to_string(s.dim), bytes,
        [o, call = op_call(env, "aclnnCat", [o, dim = s.dim](uint64_t* w, aclOpExecutor** e) {
           return aclnnCatGetWorkspaceSize(o->list, dim, o->out.get(), w, e);
         }, aclnnCat)] { call(); },
        torch_fn);
  }
  return cases;
}

const RegisterGroup kMovement(movement_cases);

}  // namespace
}  // namespace pacl::bench
