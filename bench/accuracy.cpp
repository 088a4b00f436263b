// pacl_accuracy: measured accuracy of pacl's float32 transcendental ops, in ulps, against a
// long-double reference of the same formula. Each op runs once through the public two-phase API
// over a sweep of inputs (random bit patterns of every finite magnitude, a dense [-10, 10] range
// and the special values), as a real program would call it, so the figure covers the kernel path
// the build actually uses (libmvec SIMD variants in optimised builds). Prints a Markdown table:
// max error, the input where it occurs, the share of results that are correctly rounded
// (<= 0.5 ulp), special-value mismatches (NaN/inf/zero disagreements), and results whose exact
// value lies in the subnormal range (|y| < 2^-126), which are counted apart: there a float32 ulp
// is 2^-149 and an error of many "ulps" is an absolute error below 1e-38.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_erfc.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_tanh.h"

namespace {

using L = long double;
using Gws = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using Run = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

struct Op {
  const char* name;
  Gws gws;
  Run run;
  std::function<L(L)> ref;
};

L sigmoid(L x) { return 1.0L / (1.0L + std::exp(-x)); }
L softplus(L x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

const std::vector<Op>& ops() {
  static const std::vector<Op> v = {
      {"Exp", aclnnExpGetWorkspaceSize, aclnnExp, [](L x) { return std::exp(x); }},
      {"Exp2", aclnnExp2GetWorkspaceSize, aclnnExp2, [](L x) { return std::exp2(x); }},
      {"Expm1", aclnnExpm1GetWorkspaceSize, aclnnExpm1, [](L x) { return std::expm1(x); }},
      {"Log", aclnnLogGetWorkspaceSize, aclnnLog, [](L x) { return std::log(x); }},
      {"Log2", [](const aclTensor* x, aclTensor* y, uint64_t* w, aclOpExecutor** e) {
         return aclnnLog2GetWorkspaceSize(x, y, w, e);  // CANN declares its out const
       },
       aclnnLog2, [](L x) { return std::log2(x); }},
      {"Log10", aclnnLog10GetWorkspaceSize, aclnnLog10, [](L x) { return std::log10(x); }},
      {"Log1p", aclnnLog1pGetWorkspaceSize, aclnnLog1p, [](L x) { return std::log1p(x); }},
      {"Sqrt", aclnnSqrtGetWorkspaceSize, aclnnSqrt, [](L x) { return std::sqrt(x); }},
      {"Rsqrt", aclnnRsqrtGetWorkspaceSize, aclnnRsqrt, [](L x) { return 1.0L / std::sqrt(x); }},
      {"Reciprocal", aclnnReciprocalGetWorkspaceSize, aclnnReciprocal, [](L x) { return 1.0L / x; }},
      {"Sin", aclnnSinGetWorkspaceSize, aclnnSin, [](L x) { return std::sin(x); }},
      {"Cos", aclnnCosGetWorkspaceSize, aclnnCos, [](L x) { return std::cos(x); }},
      {"Tan", aclnnTanGetWorkspaceSize, aclnnTan, [](L x) { return std::tan(x); }},
      {"Asin", aclnnAsinGetWorkspaceSize, aclnnAsin, [](L x) { return std::asin(x); }},
      {"Acos", aclnnAcosGetWorkspaceSize, aclnnAcos, [](L x) { return std::acos(x); }},
      {"Atan", aclnnAtanGetWorkspaceSize, aclnnAtan, [](L x) { return std::atan(x); }},
      {"Sinh", aclnnSinhGetWorkspaceSize, aclnnSinh, [](L x) { return std::sinh(x); }},
      {"Cosh", aclnnCoshGetWorkspaceSize, aclnnCosh, [](L x) { return std::cosh(x); }},
      {"Tanh", aclnnTanhGetWorkspaceSize, aclnnTanh, [](L x) { return std::tanh(x); }},
      {"Asinh", aclnnAsinhGetWorkspaceSize, aclnnAsinh, [](L x) { return std::asinh(x); }},
      {"Acosh", aclnnAcoshGetWorkspaceSize, aclnnAcosh, [](L x) { return std::acosh(x); }},
      {"Atanh", aclnnAtanhGetWorkspaceSize, aclnnAtanh, [](L x) { return std::atanh(x); }},
      {"Erf", aclnnErfGetWorkspaceSize, aclnnErf, [](L x) { return std::erf(x); }},
      {"Erfc", aclnnErfcGetWorkspaceSize, aclnnErfc, [](L x) { return std::erfc(x); }},
      {"Sigmoid", aclnnSigmoidGetWorkspaceSize, aclnnSigmoid, sigmoid},
      {"Silu", aclnnSiluGetWorkspaceSize, aclnnSilu, [](L x) { return x * sigmoid(x); }},
      {"LogSigmoid", aclnnLogSigmoidGetWorkspaceSize, aclnnLogSigmoid, [](L x) { return -softplus(-x); }},
      {"Mish", aclnnMishGetWorkspaceSize, aclnnMish, [](L x) { return x * std::tanh(softplus(x)); }},
      // CANN's aclnnGelu is the tanh approximation 0.5 x (1 + tanh(z)), written x sigmoid(2z) so
      // that the reference itself does not cancel for x << 0.
      {"Gelu", aclnnGeluGetWorkspaceSize, aclnnGelu,
       [](L x) { return x * sigmoid(2.0L * 0.79788456080286535587989L * (x + 0.044715L * x * x * x)); }},
  };
  return v;
}

// |got - exact| in units of the float32 ulp at exact (the spacing of floats around it; subnormal
// spacing below the smallest normal).
double ulp_error(float got, L exact) {
  if (std::isinf(exact) && std::isinf(got) && (exact > 0) == (got > 0)) return 0;
  const L a = std::fabs(exact);
  int e = 0;
  std::frexp(static_cast<double>(a), &e);
  const int ulp_exp = std::max(e - 24, -149);
  const L ulp = std::ldexp(1.0L, ulp_exp);
  return static_cast<double>(std::fabs(static_cast<L>(got) - exact) / ulp);
}

std::vector<float> inputs(size_t n) {
  std::vector<float> v;
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, -0.5f, 1e-45f, -1e-45f,
                            1.17549435e-38f, 3.4028235e38f, -3.4028235e38f, 88.72f, -87.33f, 89.0f, -104.0f};
  for (float s : specials) v.push_back(s);
  std::mt19937_64 rng(42);
  while (v.size() < n / 2) {  // every finite magnitude: random bit patterns
    uint32_t bits = static_cast<uint32_t>(rng());
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isfinite(f)) v.push_back(f);
  }
  std::uniform_real_distribution<float> dense(-10.0f, 10.0f);
  while (v.size() < n) v.push_back(dense(rng));
  return v;
}

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "pacl_accuracy: %s failed: %s\n", what, aclGetRecentErrMsg());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? static_cast<size_t>(std::strtoull(argv[1], nullptr, 10)) : (size_t{1} << 20);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) die("init");
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) die("aclrtCreateStream");
  const std::vector<float> x = inputs(n);
  const size_t bytes = n * sizeof(float);
  void *dx = nullptr, *dy = nullptr;
  if (aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    die("aclrtMalloc");
  if (aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) die("aclrtMemcpy");
  const int64_t shape[1] = {static_cast<int64_t>(n)}, strides[1] = {1};
  aclTensor* tx = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dx);
  aclTensor* ty = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, dy);
  std::vector<float> y(n);
  std::printf("float32 accuracy over %zu inputs (random finite bit patterns, [-10, 10], special values)\n\n", n);
  std::printf("| op | max error (ulp) | at input | correctly rounded | special-value mismatches | subnormal results "
              "off by > 1 ulp |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const Op& op : ops()) {
    uint64_t ws_size = 0;
    aclOpExecutor* ex = nullptr;
    if (op.gws(tx, ty, &ws_size, &ex) != ACL_SUCCESS) die(op.name);
    void* ws = nullptr;
    if (ws_size && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) die("workspace");
    if (op.run(ws, ws_size, ex, stream) != ACL_SUCCESS || aclrtSynchronizeStream(stream) != ACL_SUCCESS) die(op.name);
    if (ws) aclrtFree(ws);
    if (aclrtMemcpy(y.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) die("aclrtMemcpy");
    double worst = 0;
    float worst_x = 0;
    size_t rounded = 0, finite = 0, special = 0, subnormal = 0, subnormal_off = 0;
    for (size_t i = 0; i < n; ++i) {
      const L exact = op.ref(static_cast<L>(x[i]));
      // The float32 result the reference rounds to decides NaN/inf/zero expectations.
      const float want = static_cast<float>(exact);
      if (std::isnan(want) || std::isinf(want) || want == 0.0f) {
        const bool ok = std::isnan(want) ? std::isnan(y[i])
                        : std::isinf(want) ? y[i] == want
                                           : (std::fabs(y[i]) <= 1.5e-45f * 1.0f);
        if (!ok) ++special;
        continue;
      }
      if (std::fabs(exact) < 1.17549435082228750797e-38L) {
        ++subnormal;
        if (ulp_error(y[i], exact) > 1.0) ++subnormal_off;
        continue;
      }
      ++finite;
      const double err = ulp_error(y[i], exact);
      if (err <= 0.5) ++rounded;
      if (err > worst) {
        worst = err;
        worst_x = x[i];
      }
    }
    std::printf("| %s | %.2f | %.9g | %.2f%% | %zu | %zu of %zu |\n", op.name, worst, static_cast<double>(worst_x),
                finite ? 100.0 * static_cast<double>(rounded) / static_cast<double>(finite) : 100.0, special,
                subnormal_off, subnormal);
  }
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclrtFree(dx);
  aclrtFree(dy);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
