// Scans and the tensor-list sum through the public C API: Cumsum, CumsumV2, Cumprod,
// InplaceCumprod, Cummax, Cummin, Sum (AccumulateNv2).
//
// References walk each line along dim on the host copies. Running sums and products of floating
// values are exact in double here (PyTorch's CPU accumulate type for float32), so the result may
// differ from the reference only by its rounding into the output dtype (plus 1e-12 of the running
// magnitude); integer scans wrap. Cummax/Cummin are exact: a NaN sticks, an equal value moves the
// index to the later position (PyTorch).
#include <gtest/gtest.h>

#include <memory>

#include "aclnnop/aclnn_cummax.h"
#include "aclnnop/aclnn_cummin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_sum.h"
#include "reduce_test_util.h"

namespace {

using namespace rtest;

// A random single-dim problem whose out has self's shape.
Problem scan_problem(Rng& rng, aclDataType t) {
  Problem p = random_problem(rng, t, true, false);
  p.keepdim = true;
  p.out_shape = p.self.shape;
  return p;
}

// Calls check(line values, index of the line's first element, k -> full index) per line along dim.
void for_each_line(const Tensor& self, const Problem& p,
                   const std::function<std::string(const std::vector<Num>&, const std::function<Shape(int64_t)>&)>& check,
                   const std::string& r) {
  const int64_t rank = static_cast<int64_t>(p.self.shape.size());
  const int64_t dim = rank == 0 ? 0 : (p.dims[0] + rank) % rank;
  int failures = 0;
  for_each_slice(self, p.mask, [&](const Shape& full, const std::vector<Num>& vals) {
    if (failures >= 3) return;
    auto at = [&](int64_t k) {
      Shape i = full;
      if (rank > 0) i[static_cast<size_t>(dim)] = k;
      return i;
    };
    const std::string e = check(vals, at);
    if (!e.empty()) {
      ++failures;
      ADD_FAILURE() << r << ": line at " << shape_str(full) << ": " << e;
    }
  });
}

bool ran(const std::string& r, const Phase1Fn& p1, Phase2Fn p2) {
  const aclnnStatus st = run_two_phase(p1, p2);
  EXPECT_EQ(st, ACL_SUCCESS) << r << ": " << aclGetRecentErrMsg();
  return st == ACL_SUCCESS;
}

// Running sum (or product) of vals cast to d, checked against out along the line.
std::string check_running(aclDataType d, const std::vector<Num>& vals, const Tensor& out,
                          const std::function<Shape(int64_t)>& at, bool prod, bool exclusive, bool reverse) {
  const int64_t n = static_cast<int64_t>(vals.size());
  double s = prod ? 1 : 0, mag = 0;
  uint64_t si = prod ? 1 : 0;
  for (int64_t step = 0; step < n; ++step) {
    const int64_t k = reverse ? n - 1 - step : step;
    const Num v = cast(vals[static_cast<size_t>(k)], d);
    if (v.undefined) return "";
    const Num got = out.at(at(k));
    auto compare = [&]() -> std::string {
      if (is_floating(d)) {
        if (close(d, s, got.f, 1e-12 * mag)) return "";
        return "at " + std::to_string(k) + ": got " + num_str(got) + ", expected " + num_str(Num::real(s));
      }
      const Num want = cast(Num::integer(static_cast<int64_t>(si)), d);
      if (want.i == got.i) return "";
      return "at " + std::to_string(k) + ": got " + num_str(got) + ", expected " + num_str(want);
    };
    if (exclusive) {
      const std::string e = compare();
      if (!e.empty()) return e;
    }
    if (prod) {
      s *= v.as_double();
      si *= static_cast<uint64_t>(v.i);
    } else {
      s += v.as_double();
      si += static_cast<uint64_t>(v.i);
    }
    mag += std::fabs(s);
    if (!exclusive) {
      const std::string e = compare();
      if (!e.empty()) return e;
    }
  }
  return "";
}

const std::vector<aclDataType> kNum = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                       ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};

TEST(Cumsum, RandomShapesDimsAndDtypes) {
  Rng rng(41);
  for (int iter = 0; iter < 140; ++iter) {
    const aclDataType st = kNum[static_cast<size_t>(iter) % kNum.size()];
    const bool v2 = iter % 3 == 0;
    aclDataType dtype = v2 ? st : (rng() % 2 ? st : kNum[rng() % kNum.size()]);
    if (is_floating(st) && !is_floating(dtype)) dtype = st;
    const bool exclusive = v2 && rng() % 2, reverse = v2 && rng() % 2;
    Problem p = scan_problem(rng, st);
    const TensorDesc od = out_view(rng, dtype, p.out_shape);
    const std::string r = repro(v2 ? "CumsumV2" : "Cumsum", p,
                                v2 ? " exclusive=" + std::to_string(exclusive) + " reverse=" + std::to_string(reverse)
                                   : std::string(" dtype=") + dtype_name(dtype),
                                od);
    Tensor self(p.self), out(od);
    fill(self, rng, 0.03);
    fill(out, rng, 0);
    const auto before = out.host();
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return v2 ? aclnnCumsumV2GetWorkspaceSize(self.get(), p.dims[0], exclusive, reverse, out.get(), w, e)
                    : aclnnCumsumGetWorkspaceSize(self.get(), p.dims[0], dtype, out.get(), w, e);
        }, v2 ? aclnnCumsumV2 : aclnnCumsum)) return;
    out.download();
    for_each_line(self, p, [&](const std::vector<Num>& vals, const std::function<Shape(int64_t)>& at) {
      return check_running(dtype, vals, out, at, false, exclusive, reverse);
    }, r);
    const std::string outside = writes_outside_view(out, before);
    EXPECT_TRUE(outside.empty()) << r << ": wrote outside the out view:" << outside;
    if (HasFailure()) return;
  }
}

TEST(Cumprod, OutOfPlaceAndInPlace) {
  Rng rng(42);
  for (int iter = 0; iter < 100; ++iter) {
    const aclDataType st = kNum[static_cast<size_t>(iter) % kNum.size()];
    const bool inplace = iter % 3 == 0;
    aclDataType dtype = inplace || rng() % 2 ? st : kNum[rng() % kNum.size()];
    if (is_floating(st) && !is_floating(dtype)) dtype = st;
    Problem p = scan_problem(rng, st);
    const TensorDesc od = out_view(rng, dtype, p.out_shape);
    const std::string r = repro(inplace ? "InplaceCumprod" : "Cumprod", p, std::string(" dtype=") + dtype_name(dtype), od);
    Tensor self(p.self), out(od);
    const size_t es = dtype_size(st);
    for (int64_t k = 0; k < p.self.storage_elems(); ++k)
      store(st, self.host().data() + k * es,
            is_floating(st) ? Num::real(std::uniform_real_distribution<double>(0.5, 1.5)(rng))
                            : Num::integer(static_cast<int64_t>(rng() % 7) - 3));
    self.upload();
    const std::vector<uint8_t> original = self.host();
    int64_t d = p.dims[0];
    aclScalar* dim = aclCreateScalar(&d, ACL_INT64);
    const bool ok = ran(r, [&](uint64_t* w, aclOpExecutor** e) {
      return inplace ? aclnnInplaceCumprodGetWorkspaceSize(self.get(), dim, w, e)
                     : aclnnCumprodGetWorkspaceSize(self.get(), dim, dtype, out.get(), w, e);
    }, inplace ? aclnnInplaceCumprod : aclnnCumprod);
    aclDestroyScalar(dim);
    if (!ok) return;
    const Tensor& res = inplace ? self : out;
    if (inplace) self.download();
    else out.download();
    // The reference reads self's original values.
    Tensor orig(p.self);
    orig.host() = original;
    for_each_line(orig, p, [&](const std::vector<Num>& vals, const std::function<Shape(int64_t)>& at) {
      return check_running(inplace ? st : dtype, vals, res, at, true, false, false);
    }, r);
    if (HasFailure()) return;
  }
}

TEST(Cummax, ValuesAndIndices) {
  Rng rng(43);
  for (int iter = 0; iter < 120; ++iter) {
    const aclDataType t = kAll[static_cast<size_t>(iter) % kAll.size()];
    const bool is_max = iter % 2 == 0;
    Problem p = scan_problem(rng, t);
    const aclDataType it = rng() % 2 ? ACL_INT64 : ACL_INT32;
    const TensorDesc vd = out_view(rng, t, p.out_shape), id = out_view(rng, it, p.out_shape);
    const std::string r = repro(is_max ? "Cummax" : "Cummin", p, " indicesOut=" + id.str(), vd);
    Tensor self(p.self), vals(vd), idx(id);
    const size_t es = dtype_size(t);
    for (int64_t k = 0; k < p.self.storage_elems(); ++k)  // few distinct values: ties are common
      store(t, self.host().data() + k * es, rng() % 4 ? Num::integer(static_cast<int64_t>(rng() % 3)) : value(t, rng, 0.15));
    self.upload();
    if (!ran(r, [&](uint64_t* w, aclOpExecutor** e) {
          return is_max ? aclnnCummaxGetWorkspaceSize(self.get(), p.dims[0], vals.get(), idx.get(), w, e)
                        : aclnnCumminGetWorkspaceSize(self.get(), p.dims[0], vals.get(), idx.get(), w, e);
        }, is_max ? aclnnCummax : aclnnCummin)) return;
    vals.download();
    idx.download();
    for_each_line(self, p, [&](const std::vector<Num>& line, const std::function<Shape(int64_t)>& at) {
      Num best = Num::integer(0);
      int64_t bi = -1;
      for (int64_t k = 0; k < static_cast<int64_t>(line.size()); ++k) {
        const Num& v = line[static_cast<size_t>(k)];
        const bool v_nan = v.is_float && std::isnan(v.f), b_nan = best.is_float && std::isnan(best.f);
        const double x = v.as_double(), b = best.as_double();
        if (bi < 0 || v_nan || (!b_nan && (is_max ? x >= b : x <= b))) {
          best = v;
          bi = k;
        }
        if (!same_number(best, vals.at(at(k))) || idx.at(at(k)).i != bi)
          return "at " + std::to_string(k) + ": got " + num_str(vals.at(at(k))) + " @" + std::to_string(idx.at(at(k)).i) +
                 ", expected " + num_str(best) + " @" + std::to_string(bi);
      }
      return std::string();
    }, r);
    if (HasFailure()) return;
  }
}

TEST(Scan, BadArguments) {
  Tensor self(TensorDesc(ACL_FLOAT, {2, 3})), out(TensorDesc(ACL_FLOAT, {2, 3})), out_i(TensorDesc(ACL_INT32, {2, 3}));
  Tensor wrong(TensorDesc(ACL_FLOAT, {3, 2})), bself(TensorDesc(ACL_BOOL, {2, 3})), idx_f(TensorDesc(ACL_FLOAT, {2, 3}));
  expect_phase1_error("Cumsum dim", ACLNN_ERR_PARAM_INVALID, "[-2, 1]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumsumGetWorkspaceSize(self.get(), 2, ACL_FLOAT, out.get(), w, e);
  });
  expect_phase1_error("Cumsum dtype vs out", ACLNN_ERR_PARAM_INVALID, "dtype argument", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumsumGetWorkspaceSize(self.get(), 0, ACL_FLOAT16, out.get(), w, e);
  });
  expect_phase1_error("Cumsum float to int", ACLNN_ERR_PARAM_INVALID, "cannot be cast", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumsumGetWorkspaceSize(self.get(), 0, ACL_INT32, out_i.get(), w, e);
  });
  expect_phase1_error("Cumsum shape", ACLNN_ERR_PARAM_INVALID, "out has shape [3, 2]", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumsumGetWorkspaceSize(self.get(), 0, ACL_FLOAT, wrong.get(), w, e);
  });
  expect_phase1_error("Cumsum bool", ACLNN_ERR_PARAM_INVALID, "self dtype bool", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumsumGetWorkspaceSize(bself.get(), 0, ACL_FLOAT, out.get(), w, e);
  });
  expect_phase1_error("CumsumV2 out dtype", ACLNN_ERR_PARAM_INVALID, "dtype of self", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumsumV2GetWorkspaceSize(self.get(), 0, false, false, out_i.get(), w, e);
  });
  expect_phase1_error("Cumprod null dim", ACLNN_ERR_PARAM_NULLPTR, "dim", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumprodGetWorkspaceSize(self.get(), nullptr, ACL_FLOAT, out.get(), w, e);
  });
  expect_phase1_error("Cummax indices dtype", ACLNN_ERR_PARAM_INVALID, "indicesOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCummaxGetWorkspaceSize(self.get(), 0, out.get(), idx_f.get(), w, e);
  });
  expect_phase1_error("Cummin values dtype", ACLNN_ERR_PARAM_INVALID, "valuesOut", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnCumminGetWorkspaceSize(self.get(), 0, out_i.get(), out_i.get(), w, e);
  });
}

// ---- Sum over a tensor list ------------------------------------------------------------------------------

TEST(SumList, BroadcastAndDtypes) {
  Rng rng(44);
  const std::vector<aclDataType> types = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8};
  for (int iter = 0; iter < 60; ++iter) {
    const aclDataType t = types[static_cast<size_t>(iter) % types.size()];
    const Shape shape = random_shape(rng, 3, 4, true);
    const size_t count = 1 + rng() % 4;
    std::vector<std::unique_ptr<Tensor>> ins;
    std::vector<aclTensor*> raw;
    std::string r = "Sum tensors=[";
    for (size_t k = 0; k < count; ++k) {
      Shape s = shape;  // a trailing part of shape with some dims broadcast
      s.erase(s.begin(), s.begin() + static_cast<int64_t>(rng() % (shape.size() + 1)));
      for (auto& d : s)
        if (rng() % 3 == 0) d = 1;
      if (k == 0) s = shape;
      ins.push_back(std::make_unique<Tensor>(random_view(rng, t, s)));
      fill(*ins.back(), rng, 0.02);
      raw.push_back(ins.back()->get());
      r += (k ? ", " : "") + ins.back()->desc().str();
    }
    const TensorDesc od = out_view(rng, t, shape);
    r += "] out=" + od.str();
    Tensor out(od);
    aclTensorList* list = aclCreateTensorList(raw.data(), raw.size());
    const bool ok = ran(r, [&](uint64_t* w, aclOpExecutor** e) { return aclnnSumGetWorkspaceSize(list, out.get(), w, e); },
                        aclnnSum);
    if (!ok) {
      ins.clear();  // a list skips elements destroyed before it
      aclDestroyTensorList(list);
      return;
    }
    out.download();
    for_each_index(shape, [&](const Shape& i) {
      if (HasFailure()) return;
      double s = 0, mag = 0;
      uint64_t si = 0;
      for (auto& x : ins) {
        Shape j(i.end() - static_cast<int64_t>(x->desc().shape.size()), i.end());
        for (size_t d = 0; d < j.size(); ++d)
          if (x->desc().shape[d] == 1) j[d] = 0;
        const Num v = x->at(j);
        s += v.as_double();
        mag += std::fabs(v.as_double());
        si += static_cast<uint64_t>(v.i);
      }
      const Num got = out.at(i);
      if (is_floating(t)) EXPECT_TRUE(close(t, s, got.f, 1e-6 * mag)) << r << ": at " << shape_str(i) << " got " << got.f << " expected " << s;
      else EXPECT_EQ(got.i, cast(Num::integer(static_cast<int64_t>(si)), t).i) << r << ": at " << shape_str(i);
    });
    ins.clear();
    aclDestroyTensorList(list);
    if (HasFailure()) return;
  }
}

TEST(SumList, BadArguments) {
  Tensor out(TensorDesc(ACL_FLOAT, {2, 3}));
  auto with = [&](const std::vector<TensorDesc>& descs, const char* what, const char* mention) {
    std::vector<std::unique_ptr<Tensor>> ts;
    std::vector<aclTensor*> raw;
    for (const TensorDesc& d : descs) {
      ts.push_back(std::make_unique<Tensor>(d));
      raw.push_back(ts.back()->get());
    }
    aclTensorList* list = aclCreateTensorList(raw.data(), raw.size());
    expect_phase1_error(what, ACLNN_ERR_PARAM_INVALID, mention,
                        [&](uint64_t* w, aclOpExecutor** e) { return aclnnSumGetWorkspaceSize(list, out.get(), w, e); });
    ts.clear();  // a list skips elements destroyed before it
    aclDestroyTensorList(list);
  };
  with({TensorDesc(ACL_FLOAT, {2, 3}), TensorDesc(ACL_FLOAT16, {2, 3})}, "mixed dtypes", "tensors[1] has dtype float16");
  with({TensorDesc(ACL_FLOAT, {4})}, "no broadcast", "out");
  with({TensorDesc(ACL_DOUBLE, {2, 3})}, "float64", "float64");
  expect_phase1_error("null list", ACLNN_ERR_PARAM_NULLPTR, "tensors", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnSumGetWorkspaceSize(nullptr, out.get(), w, e);
  });
}

}  // namespace
