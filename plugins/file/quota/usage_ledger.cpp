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

// One file of `bytes` under the user's two limits.
std::vector<StoreCounter::Ceiling> ceilings(int64_t bytes, const UsageLimits& limits) {
  return {{"files", 1, limits.files}, {"bytes", bytes, limits.bytes}};
}

Status exceeded(std::string_view quota, int64_t limit, int64_t used) {
  return {code::kQuotaExceeded,
          "this upload would take you past your file quota (" + std::string(quota) + ")",
          {{"quota", quota}, {"limit", limit}, {"used", used}}};
}

}  // namespace

Status UsageLedger::charge(std::string_view project, std::string_view user, int64_t bytes,
                           const UsageLimits& limits) const {
  const std::vector<StoreCounter::Ceiling> counts = ceilings(bytes, limits);
  auto decide = [&](const json* usage) {
    if (const StoreCounter::Ceiling* full = StoreCounter::passed(usage, counts)) {
      const int64_t used = usage ? usage->value(full->field, int64_t{0}) : 0;
      return StoreCounter::Next::refuse(exceeded(full->field, full->limit, used));
    }
    if (usage) return StoreCounter::Next::again();  // room came back in between
    return StoreCounter::Next::insert({{"_userkey", user}, {"bytes", bytes}, {"files", 1}});
  };
  // Still racing: refusing is the safe answer, and the client may simply try again.
  const Status busy(code::kRateLimitExceeded, "too many uploads at once; try again",
                    {{"retry_after", 1}});
  return counter_.count(project, key_of(user), {StoreCounter::within(counts)}, decide, busy);
}

void UsageLedger::release(std::string_view project, std::string_view user, int64_t bytes,
                          int64_t files) const {
  store::Change change;
  change.inc["bytes"] = -bytes;
  change.inc["files"] = -files;
  counter_.adjust(project, key_of(user), std::move(change));
}

}  // namespace opbase::file
