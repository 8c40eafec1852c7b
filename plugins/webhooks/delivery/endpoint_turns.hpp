// EndpointTurns: which endpoint's queue a delivery thread serves next. Turns go round the
// endpoints of a project, and no endpoint holds more than `per_endpoint` of this daemon's
// delivery threads at once, so an endpoint that responds slowly (or not at all, until
// webhooks.timeout) leaves the other threads to the other endpoints instead of taking them all.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace opbase::webhooks {

class EndpointTurns {
 public:
  explicit EndpointTurns(int per_endpoint) : per_endpoint_(per_endpoint < 1 ? 1 : per_endpoint) {}

  // The first of `endpoints` (ids of `project`) after the one last given out, in their order,
  // that is not in `skip` and holds fewer than per_endpoint turns; the caller holds a turn of it
  // until give_back. nullopt when none is free.
  std::optional<std::string> take(const std::string& project,
                                  const std::vector<std::string>& endpoints,
                                  const std::vector<std::string>& skip);
  void give_back(const std::string& project, const std::string& endpoint);
  // Whether any of `endpoints` holds fewer turns than its share: only then can a waiting thread
  // take a message of theirs.
  bool any_free(const std::string& project, const std::vector<std::string>& endpoints) const;

  // Turns held now (tests).
  int held(const std::string& project, const std::string& endpoint) const;

 private:
  using Key = std::pair<std::string, std::string>;  // (project, endpoint)
  const int per_endpoint_;
  mutable std::mutex mutex_;
  std::map<Key, int> held_;                  // only endpoints with turns held
  std::map<std::string, std::string> last_;  // by project: the endpoint last given out
};

}  // namespace opbase::webhooks
