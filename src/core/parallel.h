// Intra-op parallelism: a fixed pool of worker threads shared by all kernels. parallel_for splits
// [0, n) into one contiguous range per participating thread; the calling thread takes part, so a
// pool of size 1 runs everything inline. The thread count is PACL_NUM_THREADS, default the number
// of online CPUs. Kernels size per-thread scratch (workspace) with max_threads() at plan time.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace pacl {

// A non-owning reference to a callable (no allocation, unlike std::function): valid while the
// callable it was made from lives, which a blocking call such as parallel_for guarantees.
template <typename Sig>
class FunctionRef;
template <typename R, typename... A>
class FunctionRef<R(A...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit, like std::function
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, A... a) -> R { return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<A>(a)...); }) {}
  R operator()(A... a) const { return call_(obj_, std::forward<A>(a)...); }

 private:
  void* obj_;
  R (*call_)(void*, A...);
};

int max_threads();

// Calls fn(begin, end, thread_index) over a partition of [0, n) with thread_index < max_threads().
// Ranges smaller than `grain` items are not split further. Blocks until every range is done.
// Nested calls (from inside fn) run inline.
void parallel_for(int64_t n, int64_t grain, FunctionRef<void(int64_t, int64_t, int)> fn);

}  // namespace pacl
