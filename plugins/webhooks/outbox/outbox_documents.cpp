#include "outbox/outbox_documents.hpp"

#include <stdexcept>

#include "opbase/iso_time.hpp"
#include "outbox/derived_id.hpp"
#include "outbox/json_string.hpp"

namespace opbase::webhooks {
namespace {

constexpr std::string_view kQueuePrefix = "webhooks-outbox/";
constexpr std::string_view kBundlesPrefix = "webhooks-bundles/";

}  // namespace

query::Match match_of(const nlohmann::json& fields) {
  auto match = query::parse_match(fields, store::wire_parse_options());
  if (!match) throw std::logic_error("outbox: a malformed constant match");
  return std::move(*match);
}

std::vector<query::SortKey> sort_of(std::string_view text) {
  auto sort = query::parse_sort(text, store::wire_parse_options());
  if (!sort) throw std::logic_error("outbox: a malformed constant sort");
  return std::move(*sort);
}

std::string queue_owner(std::string_view endpoint) {
  return std::string(kQueuePrefix) + std::string(endpoint);
}

store::Scope queue_scope(std::string_view endpoint) {
  return store::Scope::user(queue_owner(endpoint));
}

std::string bundles_owner(std::string_view endpoint) {
  return std::string(kBundlesPrefix) + std::string(endpoint);
}

store::Scope bundles_scope(std::string_view endpoint) {
  return store::Scope::user(bundles_owner(endpoint));
}

store::FindRequest messages_in_order(store::Scope scope, std::string_view direction,
                                     int64_t limit) {
  store::FindRequest find;
  find.collection = std::string(kMessagesCollection);
  find.scope = std::move(scope);
  find.sort = sort_of("_created_at " + std::string(direction));
  find.limit = limit;
  return find;
}

std::string message_text(const EventFields& event, std::string_view endpoint, int64_t due_ms) {
  std::string out;
  out.reserve(320 + event.data.size());
  out.append("{\"_key\":").append(json_string(message_id(event.id, endpoint, event.time_ms)));
  out.append(",\"_userkey\":").append(json_string(queue_owner(endpoint)));
  out.append(",\"_created_at\":").append(json_string(iso_time(due_ms)));  // claimable from then
  out.append(",\"endpoint\":").append(json_string(endpoint));
  out.append(",\"event_id\":").append(json_string(event.id));
  out.append(",\"type\":").append(json_string(event.type));
  out.append(",\"event_ms\":").append(std::to_string(event.time_ms));
  out.append(",\"data\":").append(event.data);  // the body is made from these three
  out.append(",\"state\":\"pending\",\"attempts_made\":0");
  out.append(",\"next_ms\":").append(std::to_string(due_ms));
  out.append(",\"lease_until_ms\":0}");
  return out;
}

}  // namespace opbase::webhooks
