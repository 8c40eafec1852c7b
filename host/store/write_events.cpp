#include "store/write_events.hpp"

#include <string_view>
#include <unordered_set>

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// "evt_" and 32 hex digits: the time in milliseconds (48 bits), then 80 random bits. The id every
// subscriber of one event sees. Time first so that journal rows, keyed by it, are appended to
// the end of the store's key index instead of landing on a random page of it: random keys made
// each event dirty a page of its own in every commit that wrote, moved and removed it.
std::string new_event_id(int64_t now_ms) { return "evt_" + time_hex(now_ms) + random_hex(10); }

}  // namespace

WriteEvents::WriteEvents(std::string project_id, store::Events spec,
                         std::vector<std::string> on_insert_plugins,
                         std::vector<std::string> on_change_plugins, int64_t now_ms)
    : project_id_(std::move(project_id)),
      spec_(std::move(spec)),
      on_insert_plugins_(std::move(on_insert_plugins)),
      on_change_plugins_(std::move(on_change_plugins)),
      now_ms_(now_ms) {}

void WriteEvents::report(const std::vector<std::string>& inserted,
                         const std::vector<std::string>& changed) {
  records_.clear();
  raised_.clear();
  // One event per document (docs/api.md#events): an update's steps may change one document twice.
  std::unordered_set<std::string_view> seen;
  if (!spec_.on_insert.empty()) {
    for (const std::string& key : inserted) {
      if (seen.insert(key).second) raise(spec_.on_insert, on_insert_plugins_, key);
    }
  }
  if (!spec_.on_change.empty()) {
    for (const std::string& key : changed) {
      if (seen.insert(key).second) raise(spec_.on_change, on_change_plugins_, key);
    }
  }
}

void WriteEvents::raise(const std::string& type, const std::vector<std::string>& plugins,
                        const std::string& document_key) {
  json payload = {{"_key", spec_.key.empty() ? document_key : spec_.key}};
  if (!spec_.collection.empty()) payload["collection"] = spec_.collection;
  if (!plugins.empty()) {
    const std::string id = new_event_id(now_ms_);
    for (const std::string& plugin : plugins) {
      records_.push_back({plugin,
                          {{"_key", id + "." + plugin},
                           {"_userkey", nullptr},
                           {"_created_at", now_ms_},
                           {"id", id},
                           {"type", type},
                           {"project", project_id_},
                           {"data", payload},
                           {"time_ms", now_ms_}}});
    }
  }
  raised_.push_back({type, payload.dump()});
}

}  // namespace opbase::host
