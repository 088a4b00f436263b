// Intra-op parallelism: a fixed pool of worker threads shared by all kernels. parallel_for splits
// [0, n) into one contiguous range per participating thread; the calling thread takes part, so a
// pool of size 1 runs everything inline. The thread count is PACL_NUM_THREADS, default the number
// of online CPUs. Kernels size per-thread scratch (workspace) with max_threads() at plan time.
#pragma once

#include <cstdint>
#include <functional>

namespace pacl {

int max_threads();

// Calls fn(begin, end, thread_index) over a partition of [0, n) with thread_index < max_threads().
// Ranges smaller than `grain` items are not split further. Blocks until every range is done.
// Nested calls (from inside fn) run inline.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t, int)>& fn);

}  // namespace pacl
