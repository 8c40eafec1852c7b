// The counts as conditional updates (see usage_ledger.hpp). A charge is:
//   1. the user's document has room (files < limit, bytes <= limit - this file's): add to it;
//   2. else no document yet: insert one holding this file (when it fits at all);
//   3. else: refuse, naming the count that is full.
// A lost race in 2 (another presign inserted first) goes back to 1; the SDK's StoreCounter runs
// the steps and their races.
#include "quota/usage_ledger.hpp"

#include "opbase/store_counter.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

// Keys are unique across the whole store, not per collection: the user's own key is taken.
std::string key_of(std::string_view user) { return "fu_" + std::string(user); }

json room_for(int64_t bytes, const UsageLimits& limits) {
  json match = json::object();
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
  auto decide = [&](const json* usage) {
    if (Status refused = refusal(usage, bytes, limits); !refused) {
      return StoreCounter::Next::refuse(std::move(refused));
    }
    if (usage) return StoreCounter::Next::again();  // room came back in between
    return StoreCounter::Next::insert({{"_userkey", user}, {"bytes", bytes}, {"files", 1}});
  };
  // Still racing: refusing is the safe answer, and the client may simply try again.
  const Status busy(code::kRateLimitExceeded, "too many uploads at once; try again",
                    {{"retry_after", 1}});
  return counter_.count(project, key_of(user), {{room_for(bytes, limits), counted(bytes, 1)}},
                        decide, busy);
}

void UsageLedger::release(std::string_view project, std::string_view user, int64_t bytes,
                          int64_t files) const {
  counter_.adjust(project, key_of(user), counted(-bytes, -files));
}

}  // namespace opbase::file
