#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs pacl's demo: pacl is built and installed
# as a CANN-shaped prefix, then the classic aclnn walkthrough (examples/add_walkthrough.cpp) is
# compiled with CANN's own example build line against that prefix and run on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build-demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DPACL_BUILD_TESTS=OFF > /dev/null
cmake --build build-demo
cmake --install build-demo --prefix "$PWD/install" > /dev/null
P="$PWD/install"
echo "pacl installed at $P"
g++ -std=c++11 examples/add_walkthrough.cpp -o build-demo/demo_add \
    -I "$P/include" -I "$P/include/aclnn" -I "$P/include/aclnnop" \
    -L "$P/lib64" -lopapi_math -lopapi_nn -lascendcl -lnnopbase
source "$P/set_env.sh"
./build-demo/demo_add
