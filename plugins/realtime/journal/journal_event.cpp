#include "journal/journal_event.hpp"

#include "opbase/hex.hpp"

namespace opbase::realtime {
namespace {

std::string text_of(const nlohmann::json& object, const char* field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// An archive and a restore raise document.updated; a record from before the write was noted
// is read by its type.
std::string write_of(const nlohmann::json& record, std::string_view type) {
  std::string write = text_of(record, "write");
  if (!write.empty()) return write;
  if (type == "document.created") return "insert";
  if (type == "document.deleted") return "delete";
  return "update";
}

}  // namespace

std::optional<JournalEvent> JournalEvent::from_record(const nlohmann::json& record) {
  if (!record.is_object()) return std::nullopt;
  JournalEvent e;
  e.id = text_of(record, "id");
  e.type = text_of(record, "type");
  const auto data = record.find("data");
  const bool known = e.type.starts_with("document.") || e.type.starts_with("realtime.");
  if (e.id.empty() || !known || data == record.end() || !data->is_object()) {
    return std::nullopt;
  }
  e.collection = text_of(*data, "collection");
  e.key = text_of(*data, "_key");
  if (e.collection.empty() || e.key.empty()) return std::nullopt;
  e.write = write_of(record, e.type);
  if (auto it = record.find("document"); it != record.end()) e.document = *it;
  if (auto it = record.find("before"); it != record.end()) e.before = *it;
  e.time_ms = record.value("time_ms", int64_t{0});
  return e;
}

std::optional<int64_t> event_id_time_ms(std::string_view id) {
  if (!id.starts_with("evt_") || id.size() < 16) return std::nullopt;
  int64_t ms = 0;
  for (const char c : id.substr(4, 12)) {
    const int digit = hex_digit_value(c);
    if (digit < 0) return std::nullopt;
    ms = ms * 16 + digit;
  }
  return ms;
}

}  // namespace opbase::realtime
