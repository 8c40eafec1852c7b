#include "delivery/endpoint_turns.hpp"

#include <algorithm>

namespace opbase::webhooks {

std::optional<std::string> EndpointTurns::take(const std::string& project,
                                               const std::vector<std::string>& endpoints,
                                               const std::vector<std::string>& skip) {
  const std::lock_guard lock(mutex_);
  if (endpoints.empty()) return std::nullopt;
  // Start after the endpoint last given out (from the top when it is gone).
  size_t start = 0;
  if (auto last = last_.find(project); last != last_.end()) {
    auto at = std::find(endpoints.begin(), endpoints.end(), last->second);
    if (at != endpoints.end()) start = static_cast<size_t>(at - endpoints.begin()) + 1;
  }
  for (size_t i = 0; i < endpoints.size(); ++i) {
    const std::string& id = endpoints[(start + i) % endpoints.size()];
    if (std::find(skip.begin(), skip.end(), id) != skip.end()) continue;
    int& turns = held_[{project, id}];
    if (turns >= per_endpoint_) continue;
    ++turns;
    last_[project] = id;
    return id;
  }
  return std::nullopt;
}

void EndpointTurns::give_back(const std::string& project, const std::string& endpoint) {
  const std::lock_guard lock(mutex_);
  auto at = held_.find({project, endpoint});
  if (at == held_.end()) return;
  if (--at->second <= 0) held_.erase(at);
}

bool EndpointTurns::any_free(const std::string& project,
                             const std::vector<std::string>& endpoints) const {
  const std::lock_guard lock(mutex_);
  return std::any_of(endpoints.begin(), endpoints.end(), [&](const std::string& id) {
    auto at = held_.find({project, id});
    return at == held_.end() || at->second < per_endpoint_;
  });
}

int EndpointTurns::held(const std::string& project, const std::string& endpoint) const {
  const std::lock_guard lock(mutex_);
  auto at = held_.find({project, endpoint});
  return at == held_.end() ? 0 : at->second;
}

}  // namespace opbase::webhooks
