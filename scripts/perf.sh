#!/usr/bin/env bash
# Regenerates docs/performance.md: builds pacl and its benchmarks (Release, with the libtorch peer
# when Debian's libtorch-dev is installed), runs pacl_compare (every case, pacl and its peers
# interleaved in one process), and writes the tables plus two plots (docs/perf_scaling.png: time per
# element vs size for Add and Softmax, 1 Ki to 256 Mi; docs/perf_dispatch.png: dispatch latency per path).
#   bash scripts/perf.sh [--filter REGEX] [--reps N]      (extra arguments go to pacl_compare)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
for p in libbenchmark-dev libtorch-dev python3-matplotlib libopenblas-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="${missing:-} $p"
done
if [ -n "${missing:-}" ]; then $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; fi
torch_prefix=$(/usr/bin/python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null || true)
cmake -S . -B build-perf -G Ninja -DCMAKE_BUILD_TYPE=Release -DPACL_BUILD_BENCH=ON -DPACL_BUILD_TESTS=OFF \
      ${torch_prefix:+-DCMAKE_PREFIX_PATH=$torch_prefix} > /dev/null
cmake --build build-perf -j "$(nproc)" --target pacl_compare pacl_accuracy
out=build-perf/perf
mkdir -p "$out"
./build-perf/bench/pacl_compare --json "$out/results.json" "$@" | tee "$out/tables.md"
/usr/bin/python3 scripts/perf_report.py "$out/results.json" "$out/tables.md" docs
echo "wrote docs/performance.md, docs/perf_scaling.png, docs/perf_dispatch.png"
