#include "store/write_events.hpp"

#include <algorithm>
#include <mutex>
#include <string_view>
#include <unordered_set>

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

bool any_keeps_documents(const std::vector<DurableSubscriber>& plugins) {
  for (const DurableSubscriber& s : plugins) {
    if (s.documents) return true;
  }
  return false;
}

// The document text a driver reported, as a tree; null when there was none or it is not JSON
// (the driver stored it as it was, so that never happens).
json tree_of(const std::string& text) {
  if (text.empty()) return nullptr;
  return json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace

std::string_view write_of_move(store::State state) {
  switch (state) {
    case store::State::kArchived:
      return "archive";
    case store::State::kDeleted:
      return "delete";
    case store::State::kActive:
      break;
  }
  return "restore";
}

std::string next_event_id(int64_t now_ms) {
  static const std::string process = random_hex(6);
  static std::mutex mutex;
  static int64_t last_ms = 0;
  static uint32_t sequence = 0;
  int64_t ms;
  uint32_t n;
  {
    std::lock_guard lock(mutex);
    last_ms = std::max(last_ms, now_ms);
    ms = last_ms;
    n = ++sequence;
  }
  const char bytes[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                         static_cast<char>(n >> 8), static_cast<char>(n)};
  return "evt_" + time_hex(ms) + hex_encode(std::string_view(bytes, 4)) + process;
}

WriteEvents::WriteEvents(std::string project_id, store::Events spec,
                         std::vector<DurableSubscriber> on_insert_plugins,
                         std::vector<DurableSubscriber> on_change_plugins, int64_t now_ms)
    : project_id_(std::move(project_id)),
      spec_(std::move(spec)),
      on_insert_plugins_(std::move(on_insert_plugins)),
      on_change_plugins_(std::move(on_change_plugins)),
      wants_documents_((!spec_.on_insert.empty() && any_keeps_documents(on_insert_plugins_)) ||
                       (!spec_.on_change.empty() && any_keeps_documents(on_change_plugins_))),
      now_ms_(now_ms) {}

void WriteEvents::report(const std::vector<WrittenDocument>& written) {
  records_.clear();
  raised_.clear();
  // One event per document (docs/api.md#events): an update's steps may change one document twice.
  std::unordered_set<std::string_view> seen;
  for (const WrittenDocument& w : written) {
    const std::string& type = w.inserted ? spec_.on_insert : spec_.on_change;
    if (type.empty() || !seen.insert(w.key).second) continue;
    raise(type, w.inserted ? on_insert_plugins_ : on_change_plugins_, w);
  }
}

void WriteEvents::raise(const std::string& type, const std::vector<DurableSubscriber>& plugins,
                        const WrittenDocument& written) {
  json payload = {{"_key", spec_.key.empty() ? written.key : spec_.key}};
  if (!spec_.collection.empty()) payload["collection"] = spec_.collection;
  if (!plugins.empty()) {
    const std::string id = next_event_id(now_ms_);
    for (const DurableSubscriber& plugin : plugins) {
      json record = {{"_key", id + "." + plugin.plugin},
                     {"_userkey", nullptr},
                     {"_created_at", now_ms_},
                     {"id", id},
                     {"type", type},
                     {"project", project_id_},
                     {"data", payload},
                     {"time_ms", now_ms_}};
      if (plugin.documents) {
        record["write"] = written.inserted ? std::string_view("insert") : written.write;
        record["document"] = tree_of(written.document);
        if (!written.inserted && !written.before.empty())
          record["before"] = tree_of(written.before);
      }
      records_.push_back({plugin.plugin, std::move(record)});
    }
  }
  raised_.push_back({type, payload.dump()});
}

}  // namespace opbase::host
