// Stream concurrency cases (issue: two streams running large Adds together reach the total
// bandwidth of one stream; a small op's latency does not suffer from a busy second stream).
// pacl's intra-op pool runs one parallel region at a time, so concurrent streams share the cores
// instead of oversubscribing them, and small ops run on the calling thread.
#include <atomic>
#include <thread>

#include "aclnnop/aclnn_add.h"
#include "bench_cases.h"

namespace pacl::bench {
namespace {

struct Stream {
  Stream() { check(aclrtCreateStream(&s), "aclrtCreateStream"); }
  ~Stream() { aclrtDestroyStream(s); }
  aclrtStream s = nullptr;
};

// A host thread that keeps a second stream busy with Adds of 1 Mi float32 while `busy` is set.
struct Background {
  Background() : ops(int64_t{1} << 20), thread([this] { loop(); }) {}
  ~Background() {
    stop = true;
    thread.join();
  }
  void loop() {
    check(aclrtSetDevice(0), "aclrtSetDevice");
    while (!stop) {
      if (!busy) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        continue;
      }
      ops.enqueue(stream.s);
      check(aclrtSynchronizeStream(stream.s), "aclrtSynchronizeStream");
    }
  }
  Stream stream;
  AddOperands ops;
  std::atomic<bool> busy{false}, stop{false};
  std::thread thread;
};

std::vector<Case> stream_cases(Environment&) {
  std::vector<Case> cases;
  static constexpr int64_t kLarge = int64_t{1} << 24;
  const double bytes = 2 * 3 * 4.0 * static_cast<double>(kLarge);
  Case two{"streams", "2 x Add f32 16 Mi: one on each of two streams, concurrently", Unit::kBandwidth, bytes, {}, {}, {}};
  two.materialize = [](Environment& env, Case& c) {
    auto x = std::make_shared<AddOperands>(kLarge), y = std::make_shared<AddOperands>(kLarge);
    auto second = std::make_shared<Stream>();
    aclrtStream first = env.stream;
    c.pacl = [x, y, first, second] {
      x->enqueue(first);
      y->enqueue(second->s);
      check(aclrtSynchronizeStream(first), "aclrtSynchronizeStream");
      check(aclrtSynchronizeStream(second->s), "aclrtSynchronizeStream");
    };
    c.peers.push_back(Peer{"the same two Adds on one stream", [x, y, first] {
                             x->enqueue(first);
                             y->enqueue(first);
                             check(aclrtSynchronizeStream(first), "aclrtSynchronizeStream");
                           }});
  };
  cases.push_back(std::move(two));

  Case small{"streams", "Add f32 1 Ki round trip while a second stream runs Adds of 1 Mi", Unit::kTime, 0, {}, {}, {}};
  small.materialize = [](Environment& env, Case& c) {
    auto ops = std::make_shared<AddOperands>(1024);
    auto bg = std::make_shared<Background>();
    aclrtStream s = env.stream;
    auto round_trip = [ops, s] {
      ops->enqueue(s);
      check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
    };
    c.pacl = [bg, round_trip] {
      bg->busy = true;
      round_trip();
    };
    c.peers.push_back(Peer{"the same round trip, second stream idle", [bg, round_trip] {
                             bg->busy = false;
                             round_trip();
                           }});
  };
  cases.push_back(std::move(small));
  return cases;
}

const RegisterGroup kStreams(stream_cases);

}  // namespace
}  // namespace pacl::bench
