// The indices of aclnnMaxPool2dWithMask (and what its backward reads), as CANN's Atlas A2/A3 path
// lays them out in the int8 indices tensor of shape [N, C, kH*kW, (ceil(Ho*Wo/16) + 1) * 32]:
//  - kernel 1x1: a bit mask. Viewed as uint16 words in the NC1HWC0 layout [N, ceil(C/16), kH*kW,
//    ceil(Ho*Wo/16) + 1, 16], word (n, c/16, k, p/16, c%16) holds bit p%16 = 1 when kernel tap k
//    of output position p = ho*Wo + wo of channel c is the window's max;
//  - any other kernel: int32 flat indices h*W + w of the max, laid out [N, C, Ho, Wo] at the start
//    of the tensor's memory (CANN's A2/A3 run the 3-d argmax op there).
// Bytes the layout does not use are written as 0.
#pragma once

#include "core/executor.h"
#include "ops/pool.h"

namespace pacl::pool {

struct MaskLayout {
  int64_t batch = 1, channels = 1, c1 = 1, taps = 1, groups = 1, positions = 1;
  bool bits = true;  // kernel 1x1: bit mask; else int32 indices

  static MaskLayout of(const Geometry& g);
  Dims indices_shape(bool batched) const;
  int64_t bytes() const { return batch * channels * taps * groups * 32; }
  // Byte offset of the uint16 word holding output position p of plane (n, c), kernel tap k.
  int64_t word_byte(int64_t n, int64_t c, int64_t k, int64_t p) const {
    return (((((n * c1 + c / 16) * taps + k) * groups + p / 16) * 16) + c % 16) * 2;
  }
};

void plan_mask_forward(OpBuilder& b, const aclTensor& self, const aclTensor& out, const aclTensor& indices, Geometry g,
                       const MaskLayout& layout);
void plan_mask_backward(OpBuilder& b, const aclTensor& grad_out, const aclTensor& indices, const aclTensor& grad_in,
                        Geometry g, const MaskLayout& layout);

}  // namespace pacl::pool
