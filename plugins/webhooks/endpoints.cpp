#include "endpoints.hpp"

#include <algorithm>

#include "opbase/iso_time.hpp"
#include "webhook_signature.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

store::FindRequest all_endpoints() {
  store::FindRequest find;
  find.collection = std::string(kEndpointsCollection);
  find.scope = store::Scope::everyone();
  find.limit = -1;
  return find;
}

}  // namespace

bool Endpoint::wants(std::string_view type) const {
  return std::find(events.begin(), events.end(), type) != events.end();
}

std::vector<std::string> Endpoint::signing_keys(int64_t now_ms) const {
  std::vector<std::string> keys;
  if (auto key = secret_key_bytes(secret)) keys.push_back(std::move(*key));
  if (!previous_secret.empty() && now_ms < previous_until_ms) {
    if (auto key = secret_key_bytes(previous_secret)) keys.push_back(std::move(*key));
  }
  return keys;
}

Endpoint Endpoint::from_document(const json& doc) {
  Endpoint e;
  e.id = doc.value("_key", "");
  e.url = doc.value("url", "");
  e.secret = doc.value("secret", "");
  e.previous_secret = doc.value("previous_secret", "");
  e.previous_until_ms = doc.value("previous_until_ms", int64_t{0});
  for (const json& type : doc.value("events", json::array())) {
    if (type.is_string()) e.events.push_back(type.get<std::string>());
  }
  e.enabled = doc.value("enabled", true);
  e.signature_content = doc.value("signature_content", e.signature_content);
  return e;
}

Status Endpoints::bootstrap(std::string_view project, const WebhooksConfig& config,
                            int64_t now_ms) const {
  const bool wanted = !config.url.empty();
  json fields = {{"enabled", wanted}, {"modified_ms", now_ms}};
  if (wanted) {
    fields.update({{"url", config.url},
                   {"events", config.events},
                   {"signature_content", config.signature_content}});
    if (!config.secret.empty()) fields["secret"] = config.secret;
  }
  store::Change change;
  change.set = fields;
  json insert = fields;
  insert.update({{"_key", kConfigEndpointId},
                 {"_userkey", nullptr},
                 {"_created_at", iso_time(now_ms)},
                 {"secret", config.secret.empty() ? new_secret() : config.secret}});
  auto match = query::parse_match({{"_key", kConfigEndpointId}}, store::wire_parse_options());
  if (!match) return match.status();
  if (!wanted) {
    // Nothing configured: switch an earlier configuration's endpoint off, make none.
    store::UpdateRequest off{std::string(kEndpointsCollection),
                             store::Scope::everyone(),
                             {{std::move(*match), std::move(change)}}};
    auto updated = store_.update(project, off);
    return updated ? Status::ok() : updated.status();
  }
  store::UpsertRequest upsert{std::string(kEndpointsCollection), store::Scope::everyone(),
                              std::move(*match), std::move(change), std::move(insert)};
  auto done = store_.upsert(project, upsert);
  return done ? Status::ok() : done.status();
}

Result<std::vector<Endpoint>> Endpoints::enabled(std::string_view project) const {
  auto found = store_.find(project, all_endpoints());
  if (!found) return found.status();
  std::vector<Endpoint> out;
  for (const json& doc : found->documents) {
    Endpoint e = Endpoint::from_document(doc);
    if (e.enabled) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace opbase::webhooks
