#include "events/durable_subscriptions.hpp"

#include <algorithm>
#include <mutex>

#include "opbase/internal/event_pattern.hpp"

namespace opbase::host {

void DurableSubscriptions::add(std::string plugin, Pending subscription) {
  const std::unique_lock lock(mutex_);
  entries_.push_back({std::move(plugin), std::move(subscription.pattern), subscription.documents});
}

void DurableSubscriptions::remove_plugin(std::string_view plugin) {
  const std::unique_lock lock(mutex_);
  std::erase_if(entries_, [&](const Entry& e) { return e.plugin == plugin; });
}

std::vector<DurableSubscriber> DurableSubscriptions::plugins_for(std::string_view type) const {
  std::vector<DurableSubscriber> plugins;
  if (type.empty()) return plugins;
  const std::shared_lock lock(mutex_);
  for (const Entry& e : entries_) {
    if (!events::matches(e.pattern, type)) continue;
    const auto known =
        std::find_if(plugins.begin(), plugins.end(),
                     [&](const DurableSubscriber& s) { return s.plugin == e.plugin; });
    if (known == plugins.end()) {
      plugins.push_back({e.plugin, e.documents});
    } else {
      known->documents = known->documents || e.documents;
    }
  }
  return plugins;
}

}  // namespace opbase::host
