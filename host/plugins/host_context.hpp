// HostContext: the host services that the C function table (host_api.cpp) reaches. One per
// daemon; outlives every plugin. The registry is written only while plugins load.
#pragma once

#include <functional>
#include <string>

#include "config/config.hpp"
#include "events/event_bus.hpp"
#include "plugins/registry.hpp"

namespace opbase::host {

struct HostContext {
  Registry* registry = nullptr;
  EventBus* bus = nullptr;
  const Config* config = nullptr;
  std::function<int64_t()> now_ms;
};

}  // namespace opbase::host

// The host's side of one plugin handle (`opbase_plugin*` in abi.h).
struct opbase_plugin {
  std::string name;
  std::string file;
  opbase::host::HostContext* context = nullptr;
  bool in_init = false;              // registration is allowed only while true
  std::string refused_registration;  // the first refused registration, for the log line
};

namespace opbase::host {

// The function table handed to every plugin's init. Static storage; valid for the process.
const opbase_host_api* host_api();

}  // namespace opbase::host
