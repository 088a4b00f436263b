// extern "C" entry points of acl_base_rt.h: data types, fp16, data buffers, logging, SoC info.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "acl/acl_base.h"
#include "core/dtype.h"
#include "runtime/c_boundary.h"

struct aclDataBuffer {
  void* data;
  size_t size;
};

extern "C" {

size_t aclDataTypeSize(aclDataType dataType) {
  const auto t = static_cast<pacl::DType>(dataType);
  return t == pacl::DType::kString ? 0 : pacl::dtype_size(t);
}

// CANN's documented conversion saturates: NaN and out-of-range values become +-65504.
aclFloat16 aclFloatToFloat16(float value) {
  if (value != value) return 0x7bff;
  if (value >= 65504.0f) return 0x7bff;
  if (value <= -65504.0f) return 0xfbff;
  return pacl::float_to_half(value);
}

// fp16 +-Inf widens to +-65536 as CANN documents; NaN widens to NaN.
float aclFloat16ToFloat(aclFloat16 value) {
  if ((value & 0x7fffu) == 0x7c00u) return (value & 0x8000u) ? -65536.0f : 65536.0f;
  return pacl::half_to_float(value);
}

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) { return new aclDataBuffer{data, size}; }

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  if (!dataBuffer) {
    pacl::set_last_error("aclDestroyDataBuffer: argument 'dataBuffer' is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  if (!dataBuffer) {
    pacl::set_last_error("aclUpdateDataBuffer: argument 'dataBuffer' is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) { return dataBuffer ? dataBuffer->data : nullptr; }
uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return dataBuffer ? static_cast<uint32_t>(dataBuffer->size) : 0;
}
size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) { return dataBuffer ? dataBuffer->size : 0; }

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...) {
  static const int threshold = [] {
    const char* v = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    return v ? std::atoi(v) : ACL_ERROR;
  }();
  if (logLevel < threshold || !fmt) return;
  static const char* names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  const char* level = (logLevel >= 0 && logLevel <= 3) ? names[logLevel] : "LOG";
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "[%s] %s:%u %s: %s\n", level, file ? file : "?", line, func ? func : "?", msg);
}

const char* aclrtGetSocName() {
  static const char* name = [] {
    const char* v = std::getenv("PACL_SOC_NAME");
    return (v && *v) ? v : "Ascend910B4";
  }();
  return name;
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  static const aclCannAttr attrs[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};
  if (!cannAttrList || !num) {
    pacl::set_last_error("aclGetCannAttributeList: argument is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  *cannAttrList = attrs;
  *num = 2;
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  if (!value) {
    pacl::set_last_error("aclGetCannAttribute: argument 'value' is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  *value = (cannAttr == ACL_CANN_ATTR_INF_NAN || cannAttr == ACL_CANN_ATTR_BF16) ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclGetDeviceCapability(uint32_t, aclDeviceInfo deviceInfo, int64_t* value) {
  if (!value) {
    pacl::set_last_error("aclGetDeviceCapability: argument 'value' is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM: *value = 20; break;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = 40; break;
    case ACL_DEVICE_INFO_L2_SIZE: *value = 192 << 20; break;
    default:
      pacl::set_last_error("aclGetDeviceCapability: deviceInfo is not an aclDeviceInfo");
      return ACL_ERROR_INVALID_PARAM;
  }
  return ACL_SUCCESS;
}

}  // extern "C"
