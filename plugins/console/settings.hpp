// The console plugin's settings (conf/opbase.properties, `console.*`), read once at init:
//   console.enabled     false: no /console/ route (404) and no op; default true
//   console.assets_dir  the page's files; empty (the default): console-assets beside console.so
//                       (a build tree), else share/opbase/console of the install console.so is in
// Thread-safety: a plain value.
#pragma once

#include <string>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::console {

struct ConsoleSettings {
  bool enabled = true;
  std::string assets_dir;  // as configured; empty: the plugin's own data folder

  static Result<ConsoleSettings> from(const Host& host);
};

}  // namespace opbase::console
