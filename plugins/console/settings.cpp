// The console plugin's settings (see settings.hpp).
#include "settings.hpp"

namespace opbase::console {

Result<ConsoleSettings> ConsoleSettings::from(const Host& host) {
  ConsoleSettings settings;
  const std::string enabled = host.config_or("console.enabled", "true");
  if (enabled != "true" && enabled != "false") {
    return Status::validation("console.enabled must be true or false",
                              {{"key", "console.enabled"}});
  }
  settings.enabled = enabled == "true";
  settings.assets_dir = host.config_or("console.assets_dir", "");
  return settings;
}

}  // namespace opbase::console
