#include "endpoints/endpoints.hpp"

#include <algorithm>
#include <stdexcept>

#include "endpoints/webhook_signature.hpp"
#include "opbase/crypto.hpp"
#include "opbase/iso_time.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

query::Match key_match(std::string_view id) {
  auto match = query::parse_match({{"_key", id}}, store::wire_parse_options());
  if (!match) throw std::logic_error("endpoints: a malformed constant match");
  return std::move(*match);
}

store::FindRequest all_endpoints() {
  store::FindRequest find;
  find.collection = std::string(kEndpointsCollection);
  find.scope = store::Scope::everyone();
  find.limit = -1;
  auto sort = query::parse_sort("_created_at asc", store::wire_parse_options());
  if (sort) find.sort = std::move(*sort);
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
                 {"created_ms", now_ms},
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
  // Deleted by an op, configured again: it comes back (its id is fixed, and the deleted one
  // still holds it until the retention purges it).
  store::StateRequest back{std::string(kEndpointsCollection),
                           store::Scope::everyone(),
                           *match,
                           store::State::kArchived,
                           store::State::kActive,
                           "configured",
                           now_ms};
  if (auto restored = store_.change_state(project, back); !restored) return restored.status();
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

Result<std::vector<Endpoint>> Endpoints::with_queues(std::string_view project) const {
  std::vector<Endpoint> out;
  for (store::State state : {store::State::kActive, store::State::kArchived}) {
    store::FindRequest find = all_endpoints();
    find.state = state;
    auto found = store_.find(project, find);
    if (!found) return found.status();
    for (const json& doc : found->documents) {
      out.push_back(Endpoint::from_document(doc));
      out.back().deleted = state == store::State::kArchived;
    }
  }
  return out;
}

Result<std::vector<json>> Endpoints::all(std::string_view project) const {
  auto found = store_.find(project, all_endpoints());
  if (!found) return found.status();
  return std::move(found->documents);
}

Result<std::optional<json>> Endpoints::get(std::string_view project, std::string_view id) const {
  store::FindRequest find = all_endpoints();
  find.match = key_match(id);
  auto found = store_.find(project, find);
  if (!found) return found.status();
  if (found->documents.empty()) return std::optional<json>();
  return std::optional<json>(std::move(found->documents.front()));
}

Result<json> Endpoints::create(std::string_view project, json fields, int64_t now_ms) const {
  fields.update({{"_key", "whep_" + random_hex(12)},
                 {"_userkey", nullptr},
                 {"_created_at", iso_time(now_ms)},
                 {"created_ms", now_ms},
                 {"modified_ms", now_ms}});
  if (!fields.contains("secret")) fields["secret"] = new_secret();
  if (Status s = store_.insert(project, {std::string(kEndpointsCollection), {fields}}); !s) {
    return s;
  }
  return fields;
}

Result<std::optional<json>> Endpoints::update(std::string_view project, std::string_view id,
                                              json fields, int64_t now_ms) const {
  fields["modified_ms"] = now_ms;
  store::Change change;
  change.set = std::move(fields);
  store::UpdateRequest update{std::string(kEndpointsCollection), store::Scope::everyone(), {}};
  update.steps.push_back({key_match(id), std::move(change)});
  auto updated = store_.update(project, update);
  if (!updated) return updated.status();
  if (updated->documents.empty()) return std::optional<json>();
  return std::optional<json>(std::move(updated->documents.front()));
}

Result<bool> Endpoints::remove(std::string_view project, std::string_view id,
                               int64_t now_ms) const {
  store::StateRequest gone{std::string(kEndpointsCollection),
                           store::Scope::everyone(),
                           key_match(id),
                           store::State::kActive,
                           store::State::kArchived,
                           "endpoint-deleted",
                           now_ms};
  auto moved = store_.change_state(project, gone);
  if (!moved) return moved.status();
  return !moved->keys.empty();
}

}  // namespace opbase::webhooks
