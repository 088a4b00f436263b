#include "runtime/status.h"

namespace pacl {

namespace {
thread_local std::string t_last_error;
}

void set_last_error(std::string msg) { t_last_error = std::move(msg); }
const char* last_error() { return t_last_error.c_str(); }

}  // namespace pacl
