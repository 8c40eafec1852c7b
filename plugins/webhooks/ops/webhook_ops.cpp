#include "ops/webhook_ops.hpp"

#include <algorithm>
#include <array>

#include "endpoints/webhook_signature.hpp"
#include "endpoints/webhook_target.hpp"
#include "opbase/field_error.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 8> kEventTypes = {
    "document.created", "document.updated", "document.deleted", "user.signedup",
    "user.signedin",    "user.signedout",   "file.uploaded",    "file.deleted"};
constexpr int64_t kDefaultRotationGraceS = 86'400;  // the previous secret signs for a day
constexpr int64_t kMaxListLimit = 500;

Status invalid(std::string_view field, std::string message) {
  return field_error(field, std::move(message));
}

// The spec's codes have no "not found" of their own: an unknown id is a parameter to fix.
Status not_found(std::string_view what, std::string_view id) {
  return field_error("id", std::string(what) + " '" + std::string(id) + "' does not exist",
                     {{"reason", "not_found"}});
}

Result<std::string> required_id(const json& body) {
  const auto id = body.find("id");
  if (id == body.end() || !id->is_string() || id->get_ref<const std::string&>().empty() ||
      id->get_ref<const std::string&>().size() > 64) {
    return invalid("id", "'id' must be the id of an endpoint or a message");
  }
  return id->get<std::string>();
}

// What an endpoint looks like to a client: never its secrets unless asked.
json endpoint_view(const json& doc, bool with_secret) {
  json view = {{"id", doc.value("_key", "")},
               {"url", doc.value("url", "")},
               {"events", doc.value("events", json::array())},
               {"enabled", doc.value("enabled", true)},
               {"signature_content", doc.value("signature_content", "id.timestamp.body")},
               {"description", doc.value("description", "")},
               {"created_ms", doc.value("created_ms", int64_t{0})},
               {"modified_ms", doc.value("modified_ms", int64_t{0})}};
  if (with_secret) view["secret"] = doc.value("secret", "");
  return view;
}

json message_view(const json& doc) {
  json attempts = json::array();
  const json recorded = doc.value("attempts", json::object());
  for (int n = 1; recorded.contains(std::to_string(n)); ++n) {
    attempts.push_back(recorded[std::to_string(n)]);
  }
  return {{"id", doc.value("_key", "")},
          {"endpoint", doc.value("endpoint", "")},
          {"type", doc.value("type", "")},
          {"state", doc.value("state", "")},
          {"payload", Outbox::payload_of(doc)},
          {"next_attempt_ms",
           doc.value("state", "") == "pending" ? doc.value("next_ms", json()) : json()},
          {"attempts", std::move(attempts)}};
}

}  // namespace

Result<json> WebhookOps::endpoint_fields(const json& body, bool creating) const {
  json fields = json::object();
  if (const auto url = body.find("url"); url != body.end()) {
    if (!url->is_string()) return invalid("url", "'url' must be a string");
    auto target = parse_target_url(url->get<std::string>());
    if (!target) return target.status();
    // Checked now as well as at each attempt, so a console hears of a refused target at once.
    if (auto resolved = resolve_target(*target, config_.allow_private_targets); !resolved) {
      return field_error("url", resolved.status().message(),
                         {{"reason", resolved.status().code()}});
    }
    fields["url"] = target->text();
  } else if (creating) {
    return invalid("url", "'url' is required: where the webhooks go");
  }
  if (const auto events = body.find("events"); events != body.end()) {
    if (!events->is_array() || events->empty()) {
      return invalid("events", "'events' must be a non-empty array of event types");
    }
    for (const json& type : *events) {
      if (!type.is_string() || std::find(kEventTypes.begin(), kEventTypes.end(),
                                         type.get<std::string>()) == kEventTypes.end()) {
        return field_error("events", "'events' holds an unknown event type",
                           {{"allowed", kEventTypes}});
      }
    }
    fields["events"] = *events;
  } else if (creating) {
    fields["events"] = config_.events;
  }
  if (const auto enabled = body.find("enabled"); enabled != body.end()) {
    if (!enabled->is_boolean()) return invalid("enabled", "'enabled' must be true or false");
    fields["enabled"] = *enabled;
  } else if (creating) {
    fields["enabled"] = true;
  }
  if (const auto content = body.find("signature_content"); content != body.end()) {
    if (!content->is_string() || !parse_signature_content(content->get<std::string>())) {
      return invalid("signature_content",
                     "'signature_content' must be id.timestamp.body or timestamp.body");
    }
    fields["signature_content"] = *content;
  } else if (creating) {
    fields["signature_content"] = config_.signature_content;
  }
  if (const auto description = body.find("description"); description != body.end()) {
    if (!description->is_string() || description->get_ref<const std::string&>().size() > 1024) {
      return invalid("description", "'description' must be a string of at most 1024 bytes");
    }
    fields["description"] = *description;
  }
  if (const auto secret = body.find("secret"); secret != body.end()) {
    if (!creating) return invalid("secret", "change a secret with webhooks.endpoint.rotate_secret");
    if (!secret->is_string() || !secret_key_bytes(secret->get<std::string>())) {
      return invalid("secret", "'secret' must be whsec_ and the base64 of 24 to 64 bytes");
    }
    fields["secret"] = *secret;
  }
  return fields;
}

Result<Reply> WebhookOps::create_endpoint(const Request& request) const {
  auto fields = endpoint_fields(request.body, /*creating=*/true);
  if (!fields) return fields.status();
  auto made = endpoints_.create(request.project_id, std::move(*fields), host_.now_ms());
  if (!made) return made.status();
  return Reply(endpoint_view(*made, /*with_secret=*/true));
}

Result<Reply> WebhookOps::update_endpoint(const Request& request) const {
  auto id = required_id(request.body);
  if (!id) return id.status();
  auto fields = endpoint_fields(request.body, /*creating=*/false);
  if (!fields) return fields.status();
  auto updated = endpoints_.update(request.project_id, *id, std::move(*fields), host_.now_ms());
  if (!updated) return updated.status();
  if (!*updated) return not_found("endpoint", *id);
  return Reply(endpoint_view(**updated, /*with_secret=*/false));
}

Result<Reply> WebhookOps::delete_endpoint(const Request& request) const {
  auto id = required_id(request.body);
  if (!id) return id.status();
  auto removed = endpoints_.remove(request.project_id, *id, host_.now_ms());
  if (!removed) return removed.status();
  if (!*removed) return not_found("endpoint", *id);
  return Reply({{"deleted", true}});
}

Result<Reply> WebhookOps::list_endpoints(const Request& request) const {
  auto all = endpoints_.all(request.project_id);
  if (!all) return all.status();
  json views = json::array();
  for (const json& doc : *all) views.push_back(endpoint_view(doc, /*with_secret=*/false));
  return Reply(std::move(views));
}

Result<Reply> WebhookOps::rotate_secret(const Request& request) const {
  auto id = required_id(request.body);
  if (!id) return id.status();
  int64_t grace_s = kDefaultRotationGraceS;
  if (const auto grace = request.body.find("grace_s"); grace != request.body.end()) {
    if (!grace->is_number_integer() || grace->get<int64_t>() < 0 ||
        grace->get<int64_t>() > 7 * 86'400) {
      return invalid("grace_s", "'grace_s' must be 0 to 604800 seconds");
    }
    grace_s = grace->get<int64_t>();
  }
  auto current = endpoints_.get(request.project_id, *id);
  if (!current) return current.status();
  if (!*current) return not_found("endpoint", *id);
  const int64_t now = host_.now_ms();
  const std::string secret = new_secret();
  // Receivers accept either signature while they switch (the header carries both).
  auto updated = endpoints_.update(request.project_id, *id,
                                   {{"secret", secret},
                                    {"previous_secret", (**current).value("secret", "")},
                                    {"previous_until_ms", now + grace_s * 1000}},
                                   now);
  if (!updated) return updated.status();
  if (!*updated) return not_found("endpoint", *id);
  return Reply(
      {{"id", *id}, {"secret", secret}, {"previous_secret_until_ms", now + grace_s * 1000}});
}

Result<Reply> WebhookOps::list_messages(const Request& request) const {
  const json& body = request.body;
  std::optional<std::string> endpoint, state;
  if (const auto it = body.find("endpoint"); it != body.end() && !it->is_null()) {
    if (!it->is_string()) return invalid("endpoint", "'endpoint' must be an endpoint id");
    endpoint = it->get<std::string>();
  }
  if (const auto it = body.find("state"); it != body.end() && !it->is_null()) {
    if (!it->is_string() || (*it != "pending" && *it != "delivered" && *it != "failed")) {
      return invalid("state", "'state' must be pending, delivered or failed");
    }
    state = it->get<std::string>();
  }
  const int64_t limit =
      body.value("limit", json(50)).is_number_integer() ? body.value("limit", int64_t{50}) : -1;
  const int64_t offset =
      body.value("offset", json(0)).is_number_integer() ? body.value("offset", int64_t{0}) : -1;
  if (limit < 1 || limit > kMaxListLimit) return invalid("limit", "'limit' must be 1 to 500");
  if (offset < 0) return invalid("offset", "'offset' must be a non-negative integer");
  auto page = outbox_.list(request.project_id, endpoint, state, limit, offset);
  if (!page) return page.status();
  json views = json::array();
  for (const json& doc : page->messages) views.push_back(message_view(doc));
  return Reply(std::move(views)).with_meta({{"total", page->total}});
}

Result<Reply> WebhookOps::resend_message(const Request& request) const {
  auto id = required_id(request.body);
  if (!id) return id.status();
  auto outcome = outbox_.resend(request.project_id, *id, host_.now_ms());
  if (!outcome) return outcome.status();
  if (*outcome == "missing") return not_found("message", *id);
  if (*outcome == "in_flight") {
    return field_error("id", "the message is being delivered right now; resend it afterwards");
  }
  workers_.messages_due();
  return Reply({{"resent", true}});
}

}  // namespace opbase::webhooks
