// The counts as conditional updates (see usage_ledger.hpp). A charge is:
//   1. the user's document has room (files < limit, bytes <= limit - this file's): add to it;
//   2. else no document yet: insert one holding this file (when it fits at all);
//   3. else: refuse, naming the count that is full.
// A lost race in 2 (another presign inserted first) goes back to 1.
#include "quota/usage_ledger.hpp"

#include "opbase/store_access.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "file_usage";
// Bounds the charge loop: each turn means another presign inserted the document in between.
constexpr int kMaxRaces = 5;

// Keys are unique across the whole store, not per collection: the user's own key is taken.
std::string key_of(std::string_view user) { return "fu_" + std::string(user); }

json room_for(std::string_view user, int64_t bytes, const UsageLimits& limits) {
  json match = {{"_key", key_of(user)}};
  if (limits.files > 0) match["files:$lt"] = limits.files;
  if (limits.bytes > 0) match["bytes:$lte"] = limits.bytes - bytes;
  return match;
}

store::Change counted(int64_t bytes, int64_t files) {
  store::Change change;
  change.inc["bytes"] = bytes;
  change.inc["files"] = files;
  return change;
}

Status exceeded(std::string_view quota, int64_t limit, int64_t used) {
  return {code::kQuotaExceeded,
          "this upload would take you past your file quota (" + std::string(quota) + ")",
          {{"quota", quota}, {"limit", limit}, {"used", used}}};
}

// Which count a file of `bytes` would pass, given the user's document (or none yet).
Status refusal(const json* usage, int64_t bytes, const UsageLimits& limits) {
  const int64_t files = usage ? usage->value("files", int64_t{0}) : 0;
  const int64_t kept = usage ? usage->value("bytes", int64_t{0}) : 0;
  if (limits.files > 0 && files >= limits.files) return exceeded("files", limits.files, files);
  if (limits.bytes > 0 && kept + bytes > limits.bytes) return exceeded("bytes", limits.bytes, kept);
  return Status::ok();
}

}  // namespace

Status UsageLedger::charge(std::string_view project, std::string_view user, int64_t bytes,
                           const UsageLimits& limits) const {
  for (int attempt = 0; attempt < kMaxRaces; ++attempt) {
    auto added = update_matched(store_, project, kCollection, room_for(user, bytes, limits),
                                counted(bytes, 1));
    if (!added) return added.status();
    if (*added) return Status::ok();
    auto found = find_by_key(store_, project, kCollection, key_of(user));
    if (!found) return found.status();
    const json* usage = *found ? &**found : nullptr;
    if (Status refused = refusal(usage, bytes, limits); !refused) return refused;
    if (usage) continue;  // room came back between the update and the read
    json doc = {{"_key", key_of(user)}, {"_userkey", user}, {"bytes", bytes}, {"files", 1}};
    const Status inserted = insert_or_revive(store_, project, kCollection, std::move(doc));
    if (inserted.code() != store::kDuplicateKey) return inserted;
  }
  // Still racing: refusing is the safe answer, and the client may simply try again.
  return Status(code::kRateLimitExceeded, "too many uploads at once; try again",
                {{"retry_after", 1}});
}

void UsageLedger::release(std::string_view project, std::string_view user, int64_t bytes,
                          int64_t files) const {
  (void)update_where(store_, project, kCollection, {{"_key", key_of(user)}},
                     counted(-bytes, -files));
}

}  // namespace opbase::file
