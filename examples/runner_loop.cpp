// A small multi-op sequence in a loop with changing shapes, through pacl's op runner:
//   y = x * x (Mul, by name) ; z = y + 0.5 * h (Add, typed; h is x in float16, converted in
//   workspace) ; e = exp(z) (Exp, by name) ;
//   t = permute(e, [1, 0]) (Permute, typed)
// The first three are launched without synchronizing; the last one runs (and synchronizes).
// Shapes repeat, so after the first pass every op is an executor-cache hit that only rebinds the
// new buffers' addresses. Each pass uses another workspace strategy. Public CANN API + the runner
// only. Prints PASS when every element matches the host reference.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_permute.h"
#include "pacl/runner.h"

namespace {

struct Buffer {
  Buffer(int64_t rows, int64_t cols, aclDataType dtype = ACL_FLOAT) : shape{rows, cols}, n(rows * cols) {
    PACL_CHECK(aclrtMalloc(&data, static_cast<size_t>(n) * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    tensor = aclCreateTensor(shape, 2, dtype, nullptr, 0, ACL_FORMAT_ND, shape, 2, data);
  }
  ~Buffer() {
    aclDestroyTensor(tensor);
    aclrtFree(data);
  }
  int64_t shape[2];
  int64_t n;
  void* data = nullptr;
  aclTensor* tensor = nullptr;
};

}  // namespace

int main() {
  PACL_CHECK(aclInit(nullptr));
  PACL_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  PACL_CHECK(aclrtCreateStream(&stream));
  const int64_t shapes[][2] = {{2, 3}, {16, 8}, {5, 7}, {2, 3}, {64, 33}};
  const pacl::WorkspaceStrategy strategies[] = {pacl::WorkspaceStrategy::kPerCall, pacl::WorkspaceStrategy::kPerStream,
                                                pacl::WorkspaceStrategy::kPool};
  int bad = 0;
  for (pacl::WorkspaceStrategy strategy : strategies) {
    pacl::SetDefaultWorkspaceStrategy(strategy);
    for (const auto& s : shapes) {
      const int64_t r = s[0], c = s[1];
      Buffer x(r, c), h(r, c, ACL_FLOAT16), y(r, c), z(r, c), e(r, c), t(c, r);  // fresh buffers every time
      std::vector<float> hx(static_cast<size_t>(x.n));
      std::vector<aclFloat16> hh(hx.size());
      for (size_t i = 0; i < hx.size(); ++i) {
        hx[i] = std::sin(static_cast<float>(i) * 0.37f);
        hh[i] = aclFloatToFloat16(hx[i]);
      }
      PACL_CHECK(aclrtMemcpy(x.data, hx.size() * 4, hx.data(), hx.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
      PACL_CHECK(aclrtMemcpy(h.data, hh.size() * 2, hh.data(), hh.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));

      pacl::OpRunner("Mul", stream).AddInput(x.tensor).AddInput(x.tensor).AddOutput(y.tensor).Launch();
      pacl::Launch(stream, aclnnAddGetWorkspaceSize, aclnnAdd, y.tensor, h.tensor, pacl::Scalar(0.5f), z.tensor);
      pacl::OpRunner("Exp", stream).AddInput(z.tensor).AddOutput(e.tensor).Launch();
      pacl::Run(stream, aclnnPermuteGetWorkspaceSize, aclnnPermute, e.tensor, pacl::IntArray{1, 0}, t.tensor);

      std::vector<float> ht(hx.size());
      PACL_CHECK(aclrtMemcpy(ht.data(), ht.size() * 4, t.data, ht.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
      for (int64_t i = 0; i < r; ++i) {
        for (int64_t j = 0; j < c; ++j) {
          const size_t k = static_cast<size_t>(i * c + j);
          const double v = hx[k], vh = aclFloat16ToFloat(hh[k]);
          const double want = std::exp(static_cast<double>(static_cast<float>(v * v)) + 0.5 * vh);
          const double got = ht[static_cast<size_t>(j * r + i)];
          if (std::fabs(got - want) > 1e-5 * std::fabs(want)) ++bad;
        }
      }
    }
    const pacl::CacheStats cs = pacl::GetCacheStats();
    std::printf("after the %-10s pass: executor cache %3llu hits, %2llu misses, %2zu entries\n",
                pacl::WorkspaceStrategyName(strategy), static_cast<unsigned long long>(cs.hits),
                static_cast<unsigned long long>(cs.misses), cs.entries);
  }
  const pacl::PoolStats ps = pacl::DefaultPool().Stats();
  const pacl::WorkspaceStats ws = pacl::GetWorkspaceStats();
  std::printf("workspace: %llu per-call mallocs, %llu per-stream grows, pool peak reserved %zu bytes\n",
              static_cast<unsigned long long>(ws.per_call_mallocs), static_cast<unsigned long long>(ws.per_stream_grows),
              ps.peak_reserved);
  // Four ops x four distinct shapes were planned once; everything else was a cache hit.
  const pacl::CacheStats cs = pacl::GetCacheStats();
  if (cs.misses != 16 || cs.hits != 3 * 5 * 4 - 16) ++bad;
  pacl::ReleaseResources();
  PACL_CHECK(aclrtDestroyStream(stream));
  PACL_CHECK(aclrtResetDevice(0));
  PACL_CHECK(aclFinalize());
  std::printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASS", bad);
  return bad ? 1 : 0;
}
