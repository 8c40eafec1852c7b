#include "events/durable_subscriptions.hpp"

#include <algorithm>
#include <mutex>

#include "opbase/internal/event_pattern.hpp"

namespace opbase::host {

void DurableSubscriptions::add(std::string plugin, std::string pattern) {
  const std::unique_lock lock(mutex_);
  entries_.push_back({std::move(plugin), std::move(pattern)});
}

void DurableSubscriptions::remove_plugin(std::string_view plugin) {
  const std::unique_lock lock(mutex_);
  std::erase_if(entries_, [&](const Entry& e) { return e.plugin == plugin; });
}

std::vector<std::string> DurableSubscriptions::plugins_for(std::string_view type) const {
  std::vector<std::string> plugins;
  if (type.empty()) return plugins;
  const std::shared_lock lock(mutex_);
  for (const Entry& e : entries_) {
    if (events::matches(e.pattern, type) &&
        std::find(plugins.begin(), plugins.end(), e.plugin) == plugins.end()) {
      plugins.push_back(e.plugin);
    }
  }
  return plugins;
}

}  // namespace opbase::host
