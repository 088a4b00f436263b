#include "runtime/observer.h"

#include <mutex>

namespace pacl {

namespace detail {
std::atomic<Observer*> g_observer{nullptr};
}

namespace {
ObserverFactory g_factory = nullptr;
std::once_flag g_installed;
}  // namespace

void set_observer_factory(ObserverFactory f) { g_factory = f; }

void install_observer_once(const char* config_path) {
  std::call_once(g_installed, [config_path] {
    if (!g_factory) return;
    if (Observer* o = g_factory(config_path)) detail::g_observer.store(o, std::memory_order_release);  // lives until exit
  });
}

}  // namespace pacl
