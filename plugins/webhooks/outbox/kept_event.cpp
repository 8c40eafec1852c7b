#include "outbox/kept_event.hpp"

#include <array>
#include <charconv>

#include "opbase/json_text.hpp"

namespace opbase::webhooks {
namespace {

// The string a member's raw JSON text holds, or "" when it is not a string.
std::string string_of(std::optional<std::string_view> raw) {
  if (!raw) return {};
  return json_text::string_value(*raw).value_or("");
}

int64_t integer_of(std::optional<std::string_view> raw) {
  int64_t value = 0;
  if (!raw) return 0;
  const auto [end, error] = std::from_chars(raw->data(), raw->data() + raw->size(), value);
  return error == std::errc() && end == raw->data() + raw->size() ? value : 0;
}

}  // namespace

std::optional<KeptEvent> KeptEvent::read(std::string_view text) {
  static constexpr std::array<std::string_view, 5> kNames = {"_key", "id", "type", "time_ms",
                                                             "data"};
  std::array<std::optional<std::string_view>, kNames.size()> members;
  json_text::top_level_members(text, kNames, members);  // one pass; all empty if not an object
  KeptEvent event;
  event.key = string_of(members[0]);
  if (event.key.empty()) return std::nullopt;
  event.id = string_of(members[1]);
  event.type = string_of(members[2]);
  event.time_ms = integer_of(members[3]);
  const auto& data = members[4];
  event.data = data && data->front() == '{' ? *data : std::string_view("{}");
  return event;
}

}  // namespace opbase::webhooks
