// The Add walkthrough through pacl's op runner: the builder (by name), the typed path, each
// workspace strategy, Launch + Synchronize, and what an error says. Public CANN API + the runner
// only, so it builds unchanged against a real CANN install. Prints PASS when every result is right.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "pacl/runner.h"

namespace {

int failures = 0;

// A device buffer with its aclTensor (contiguous).
struct DeviceTensor {
  DeviceTensor(std::vector<int64_t> dims, aclDataType dtype, size_t elem_size) : shape(std::move(dims)) {
    n = 1;
    for (int64_t d : this->shape) n *= d;
    bytes = static_cast<size_t>(n) * elem_size;
    PACL_CHECK(aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    tensor = aclCreateTensor(this->shape.data(), this->shape.size(), dtype, nullptr, 0, ACL_FORMAT_ND,
                             this->shape.data(), this->shape.size(), data);
  }
  ~DeviceTensor() {
    aclDestroyTensor(tensor);
    aclrtFree(data);
  }
  template <class T>
  void Upload(const std::vector<T>& h) {
    PACL_CHECK(aclrtMemcpy(data, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  std::vector<float> DownloadFloat() const {
    std::vector<float> h(static_cast<size_t>(n));
    PACL_CHECK(aclrtMemcpy(h.data(), bytes, data, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    return h;
  }
  std::vector<int64_t> shape;
  int64_t n = 0;
  size_t bytes = 0;
  void* data = nullptr;
  aclTensor* tensor = nullptr;
};

void Expect(const char* what, const DeviceTensor& out, float want) {
  const std::vector<float> h = out.DownloadFloat();
  int bad = 0;
  for (float v : h) bad += std::fabs(v - want) > 1e-6f * std::fabs(want);
  std::printf("%-58s %s (all %.1f)\n", what, bad ? "FAIL" : "ok", static_cast<double>(want));
  failures += bad != 0;
}

}  // namespace

int main() {
  PACL_CHECK(aclInit(nullptr));
  PACL_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  PACL_CHECK(aclrtCreateStream(&stream));
  {
    const int64_t n = 1024;
    DeviceTensor a({n}, ACL_FLOAT, 4), b({n}, ACL_FLOAT, 4), out({n}, ACL_FLOAT, 4);
    a.Upload(std::vector<float>(n, 3.0f));
    b.Upload(std::vector<float>(n, 5.0f));

    // 1. By name: arguments in aclnnAddGetWorkspaceSize's order, checked against its signature.
    pacl::OpRunner("Add", stream).AddInput(a.tensor).AddInput(b.tensor).AddScalar(1.0f).AddOutput(out.tensor).Run();
    Expect("builder: out = a + 1 * b", out, 8.0f);

    // 2. Typed: the entry points as functions, every argument checked at compile time.
    pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.tensor, b.tensor, pacl::Scalar(2.0f), out.tensor);
    Expect("typed: out = a + 2 * b", out, 13.0f);

    // The same call again hits the executor cache: phase 1 is skipped, addresses are rebound.
    const pacl::RunInfo info =
        pacl::Run(stream, aclnnAddGetWorkspaceSize, aclnnAdd, a.tensor, b.tensor, pacl::Scalar(2.0f), out.tensor);
    std::printf("%-58s %s\n", "typed again: executor cache hit", info.cache_hit ? "ok" : "FAIL");
    failures += !info.cache_hit;

    // 3. Each workspace strategy, on an Add that needs workspace (float16 + float32: the float16
    //    operand is converted into workspace).
    DeviceTensor h({n}, ACL_FLOAT16, 2);
    h.Upload(std::vector<aclFloat16>(n, aclFloatToFloat16(0.5f)));
    for (pacl::WorkspaceStrategy s :
         {pacl::WorkspaceStrategy::kPerCall, pacl::WorkspaceStrategy::kPerStream, pacl::WorkspaceStrategy::kPool}) {
      pacl::RunOptions o;
      o.stream = stream;
      o.workspace = s;
      const pacl::RunInfo r =
          pacl::Run(o, aclnnAddGetWorkspaceSize, aclnnAdd, h.tensor, b.tensor, pacl::Scalar(1.0f), out.tensor);
      char what[96];
      std::snprintf(what, sizeof what, "workspace %s (%llu bytes): out = h + b", pacl::WorkspaceStrategyName(s),
                    static_cast<unsigned long long>(r.workspace_size));
      Expect(what, out, 5.5f);
    }
    const pacl::PoolStats ps = pacl::DefaultPool().Stats();
    std::printf("pool: reserved %zu, live %zu, peak live %zu, allocations %llu (%llu from cache)\n", ps.reserved,
                ps.live, ps.peak_live, static_cast<unsigned long long>(ps.allocations),
                static_cast<unsigned long long>(ps.cache_hits));

    // 4. Launch: no synchronize; what the runner owns stays alive until the stream has passed.
    for (int i = 0; i < 8; ++i)
      pacl::OpRunner("Add", stream).AddInput(out.tensor).AddInput(b.tensor).AddScalar(1.0f).AddOutput(out.tensor).Launch();
    pacl::Synchronize(stream);
    Expect("8 launches of out += b, then Synchronize", out, 45.5f);

    // 5. Errors explain themselves: op, phase, status name, the arguments and CANN's message.
    DeviceTensor wrong({n / 2}, ACL_FLOAT, 4);
    const pacl::Status st =
        pacl::OpRunner("Add", stream).AddInput(a.tensor).AddInput(wrong.tensor).AddScalar(1.0f).AddOutput(out.tensor).TryRun();
    std::printf("error: %s\n", st.ToString().c_str());
    failures += st.ok() || st.phase() != pacl::Phase::kPhase1;
    try {
      pacl::OpRunner("Add", stream).AddInput(a.tensor).AddScalar(1.0f).AddInput(b.tensor).AddOutput(out.tensor).Run();
      ++failures;
    } catch (const pacl::RunnerError& e) {
      std::printf("error: %s\n", e.what());
    }

    const pacl::CacheStats cs = pacl::GetCacheStats();
    std::printf("executor cache: %llu hits, %llu misses, %zu entries, %zu bytes\n",
                static_cast<unsigned long long>(cs.hits), static_cast<unsigned long long>(cs.misses), cs.entries,
                cs.bytes);
  }
  pacl::ReleaseResources();
  PACL_CHECK(aclrtDestroyStream(stream));
  PACL_CHECK(aclrtResetDevice(0));
  PACL_CHECK(aclFinalize());
  std::printf("%s\n", failures ? "FAILED" : "PASS");
  return failures ? 1 : 0;
}
