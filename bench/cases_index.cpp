// Index-family cases: row gathers (IndexSelect, Embedding: 1 Mi rows of 16 float32 picked at random
// from a 64 Ki-row table), Take (4 Mi random elements of a 16 Mi table), ScatterAdd of 1 Mi rows.
// Each runs next to the copy probe of the same bytes (a gather is a copy with an indirection) and,
// when libtorch is found, PyTorch's kernel on the same data.
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_take.h"
#include "bench_cases.h"

#ifdef PACL_BENCH_TORCH
#include <ATen/ATen.h>
#endif

namespace pacl::bench {
namespace {

constexpr int64_t kTableRows = 64 * 1024, kWidth = 16, kPicks = 1024 * 1024;
constexpr int64_t kTakeTable = 16 * 1024 * 1024, kTakePicks = 4 * 1024 * 1024;

struct Operands {
  Operands()
      : table(ACL_FLOAT, {kTableRows, kWidth}), rows(ACL_INT64, {kPicks}, 0, kTableRows - 0.001, 5),
        out(ACL_FLOAT, {kPicks, kWidth}), flat(ACL_FLOAT, {kTakeTable}), take_idx(ACL_INT64, {kTakePicks}, 0, kTakeTable - 0.001, 6),
        take_out(ACL_FLOAT, {kTakePicks}), scatter_idx(ACL_INT64, {kPicks, kWidth}, 0, kTableRows - 0.001, 7),
        scatter_out(ACL_FLOAT, {kTableRows, kWidth}) {}
  DeviceTensor table, rows, out, flat, take_idx, take_out, scatter_idx, scatter_out;
};

#ifdef PACL_BENCH_TORCH
struct TorchOperands {
  TorchOperands()
      : table(at::rand({kTableRows, kWidth})), rows(at::randint(kTableRows, {kPicks}, at::kLong)),
        out(at::empty({kPicks, kWidth})), flat(at::rand({kTakeTable})), take_idx(at::randint(kTakeTable, {kTakePicks}, at::kLong)),
        take_out(at::empty({kTakePicks})), src(at::rand({kPicks, kWidth})),
        scatter_idx(at::randint(kTableRows, {kPicks, kWidth}, at::kLong)), scatter_out(at::empty({kTableRows, kWidth})) {}
  at::Tensor table, rows, out, flat, take_idx, take_out, src, scatter_idx, scatter_out;
};
#endif

std::vector<Case> index_cases(Environment& env) {
  std::vector<Case> cases;
  auto o = std::make_shared<Operands>();
#ifdef PACL_BENCH_TORCH
  auto t = std::make_shared<TorchOperands>();
#endif
  auto add = [&](std::string name, double bytes, std::string op, Phase1 p1, Phase2 p2, std::function<void()> torch_fn) {
    Case c{"index", std::move(name), Unit::kBandwidth, bytes, [o, call = op_call(env, std::move(op), std::move(p1), p2)] { call(); }, {}};
    c.peers.push_back(Peer{"copy probe, same bytes", copy_probe(env, bytes)});
    if (torch_fn) c.peers.push_back(Peer{"PyTorch", std::move(torch_fn)});
    cases.push_back(std::move(c));
  };
  std::function<void()> none;
#ifdef PACL_BENCH_TORCH
#define TORCH(expr) [t] { expr; }
#else
#define TORCH(expr) none
#endif
  // bytes: rows read + rows written + the index read
  const double gather_bytes = 2.0 * 4 * kPicks * kWidth + 8.0 * kPicks;
  add("IndexSelect 1 Mi rows x 16 f32", gather_bytes, "aclnnIndexSelect",
      [o](uint64_t* w, aclOpExecutor** e) { return aclnnIndexSelectGetWorkspaceSize(o->table.get(), 0, o->rows.get(), o->out.get(), w, e); },
      aclnnIndexSelect, TORCH(at::index_select_out(t->out, t->table, 0, t->rows)));
  add("Embedding 1 Mi rows x 16 f32", gather_bytes, "aclnnEmbedding",
      [o](uint64_t* w, aclOpExecutor** e) { return aclnnEmbeddingGetWorkspaceSize(o->table.get(), o->rows.get(), o->out.get(), w, e); },
      aclnnEmbedding, TORCH(at::embedding(t->table, t->rows)));
  add("Take 4 Mi of 16 Mi f32", 16.0 * kTakePicks, "aclnnTake",
      [o](uint64_t* w, aclOpExecutor** e) { return aclnnTakeGetWorkspaceSize(o->flat.get(), o->take_idx.get(), o->take_out.get(), w, e); },
      aclnnTake, TORCH(at::take_out(t->take_out, t->flat, t->take_idx)));
  // ScatterAdd: self copied to out, then 1 Mi x 16 values added at random rows (read src, index, rmw out)
  add("ScatterAdd 1 Mi x 16 f32 into 64 Ki rows", 2.0 * 4 * kTableRows * kWidth + 12.0 * kPicks * kWidth + 8.0 * kPicks * kWidth,
      "aclnnScatterAdd",
      [o](uint64_t* w, aclOpExecutor** e) {
        return aclnnScatterAddGetWorkspaceSize(o->table.get(), 0, o->scatter_idx.get(), o->out.get(), o->scatter_out.get(), w, e);
      },
      aclnnScatterAdd, TORCH(at::scatter_add_out(t->scatter_out, t->table, 0, t->scatter_idx, t->src)));
#undef TORCH
  return cases;
}

const RegisterGroup kIndex(index_cases);

}  // namespace
}  // namespace pacl::bench
