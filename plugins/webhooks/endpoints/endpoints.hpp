// Endpoints: where a project's webhooks go (docs/api.md#endpoints), kept in the project's store
// (the webhooks namespace, collection "endpoints"). Each has a URL, a secret, the event types it
// takes, an on/off switch and its signature content; after a secret rotation the previous
// secret keeps signing beside the new one for a while, so receivers can switch without losing
// a delivery. The endpoint of the configuration (`webhooks.url`) has the fixed id "whep_config".
// A deleted endpoint is archived, not removed at once: its queued messages must still end (they
// fail at their next claim), and the webhooks retention purges it with the messages.
// Thread-safety: every method may be called from any thread (DocumentStore calls).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "settings.hpp"

namespace opbase::webhooks {

inline constexpr std::string_view kEndpointsCollection = "endpoints";
inline constexpr std::string_view kConfigEndpointId = "whep_config";

struct Endpoint {
  std::string id;
  std::string url;
  std::string secret;
  std::string previous_secret;  // empty, or signing beside `secret` until previous_until_ms
  int64_t previous_until_ms = 0;
  std::vector<std::string> events;
  bool enabled = true;
  bool deleted = false;  // archived by webhooks.endpoint.delete: its messages fail
  std::string signature_content = "id.timestamp.body";

  bool wants(std::string_view type) const;
  // The key bytes to sign with now: the secret's, and the previous one's while it lasts.
  std::vector<std::string> signing_keys(int64_t now_ms) const;
  static Endpoint from_document(const nlohmann::json& doc);
};

class Endpoints {
 public:
  explicit Endpoints(const DocumentStore& store) : store_(store) {}

  // Makes the configuration's endpoint exist as configured (a new secret is made once and kept
  // when the configuration names none), or switches it off when `webhooks.url` is unset.
  Status bootstrap(std::string_view project, const WebhooksConfig& config, int64_t now_ms) const;
  // The endpoints that are switched on.
  Result<std::vector<Endpoint>> enabled(std::string_view project) const;
  // Every endpoint whose queue may hold messages: the live ones, switched on or off, and the
  // deleted ones the retention has not purged yet.
  Result<std::vector<Endpoint>> with_queues(std::string_view project) const;
  // Every endpoint, as stored, oldest first.
  Result<std::vector<nlohmann::json>> all(std::string_view project) const;
  // One endpoint as stored, or nullopt.
  Result<std::optional<nlohmann::json>> get(std::string_view project, std::string_view id) const;
  // A new endpoint from checked fields (url, events, enabled, signature_content, description,
  // secret); returns the stored document.
  Result<nlohmann::json> create(std::string_view project, nlohmann::json fields,
                                int64_t now_ms) const;
  // Sets checked fields; nullopt when there is no such endpoint.
  Result<std::optional<nlohmann::json>> update(std::string_view project, std::string_view id,
                                               nlohmann::json fields, int64_t now_ms) const;
  // Archives the endpoint; false when there was no such endpoint.
  Result<bool> remove(std::string_view project, std::string_view id, int64_t now_ms) const;

 private:
  const DocumentStore& store_;
};

}  // namespace opbase::webhooks
