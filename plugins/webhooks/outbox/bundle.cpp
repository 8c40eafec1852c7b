#include "outbox/bundle.hpp"

#include "opbase/iso_time.hpp"
#include "outbox/derived_id.hpp"
#include "outbox/json_string.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

// A digest of everything the bundle holds: only the same events for the same endpoint make the
// same key, so a bundle taken for one already made (insert: duplicate key) is always that one.
std::string bundle_key(std::string_view endpoint, std::string_view events, int64_t first_ms) {
  std::string content(endpoint);
  content.append(1, '\n').append(events);
  return derived_id("bdl_", first_ms, content);
}

}  // namespace

void BundleWriter::add(const KeptEvent& event) {
  if (count_ == 0) {
    first_ms_ = event.time_ms;
  } else {
    events_.append(1, ',');
  }
  ++count_;
  events_.append("{\"id\":").append(json_string(event.id));
  events_.append(",\"type\":").append(json_string(event.type));
  events_.append(",\"time_ms\":").append(std::to_string(event.time_ms));
  events_.append(",\"data\":").append(event.data).append(1, '}');
}

std::string BundleWriter::document(std::string_view endpoint, std::string_view owner,
                                   int64_t now_ms) const {
  std::string out;
  out.reserve(events_.size() + 256);
  out.append("{\"_key\":").append(json_string(bundle_key(endpoint, events_, first_ms_)));
  out.append(",\"_userkey\":").append(json_string(owner));
  out.append(",\"_created_at\":").append(json_string(iso_time(now_ms)));  // unpacked oldest first
  out.append(",\"endpoint\":").append(json_string(endpoint));
  out.append(",\"state\":").append(json_string(kBundledState));
  out.append(",\"next_ms\":").append(std::to_string(now_ms));
  out.append(",\"count\":").append(std::to_string(count_));
  out.append(",\"events\":[").append(events_).append("]}");
  return out;
}

bool Bundle::is_bundle(const json& doc) {
  const auto state = doc.find("state");
  return state != doc.end() && state->is_string() &&
         state->get_ref<const std::string&>() == kBundledState;
}

std::optional<Bundle> Bundle::from_document(const json& doc) {
  if (!is_bundle(doc)) return std::nullopt;
  const auto events = doc.find("events");
  if (events == doc.end() || !events->is_array()) return std::nullopt;
  Bundle bundle;
  try {
    bundle.key = doc.at("_key").get<std::string>();
    bundle.endpoint = doc.at("endpoint").get<std::string>();
    bundle.due_ms = doc.at("next_ms").get<int64_t>();
    for (const json& item : *events) {
      bundle.events.push_back({item.at("id").get<std::string>(), item.at("type").get<std::string>(),
                               item.at("time_ms").get<int64_t>(), item.at("data").dump()});
    }
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return bundle;
}

}  // namespace opbase::webhooks
