#!/usr/bin/env bash
# Builds pacl with warnings as errors and runs the whole test suite, then the op tests and examples
# under the contract checker (PACL_CHECK=2, fatal), then the suite again built with AddressSanitizer
# + UndefinedBehaviorSanitizer, then the concurrency suites under ThreadSanitizer. Installs what it
# needs on Debian 12 first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc)

cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPACL_WERROR=ON > /dev/null
cmake --build build-test -j "$jobs"
(cd build-test && ctest -j "$jobs" --output-on-failure)

# The op tests, examples and CANN-style programs again under the contract checker at its strictest
# level, with the first report fatal: pacl's own correct programs must draw no report. (The runtime
# and executor suites misuse the API on purpose to test its answers; test_checker sets its own mode.)
(cd build-test && PACL_CHECK=2 PACL_CHECK_FATAL=1 ctest -j "$jobs" --output-on-failure \
   -LE '^test_(runtime|executor|checker)$' -E '^checker_fatal_and_log$')

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPACL_WERROR=ON \
      -DPACL_SANITIZE='address;undefined' > /dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest -j "$jobs" --output-on-failure)

# ThreadSanitizer over the concurrency-heavy suites (streams, events, executors, the intra-op pool
# under several host threads, the runner's executor cache hammered by threads x streams).
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPACL_SANITIZE=thread > /dev/null
cmake --build build-tsan -j "$jobs" --target test_runtime test_executor test_checker test_concurrency test_runner_cache
# The checker cases that free, read or overwrite memory under queued work, or launch one executor on
# two unordered streams, or write one buffer from two unordered streams, are data races on purpose (the checker's job is to report them): TSan sees
# the same race and is not asked about them.
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest -j "$jobs" --output-on-failure -L '^test_(runtime|executor|checker|concurrency|runner_cache)$' \
   -E '^Checker\.(FreeBeforeSynchronize|WorkspaceFreedBeforeSynchronize|ReadBeforeSynchronize|HostOverwritesAnInputOfQueuedWork|RepeatableExecutorOnTwoStreams|CrossStreamRaceWithoutEvent)$')
