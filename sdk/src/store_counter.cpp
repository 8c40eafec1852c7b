#include "opbase/store_counter.hpp"

#include <optional>

#include "opbase/store_access.hpp"

namespace opbase {
namespace {

using nlohmann::json;

// Each round means another caller changed the document in between, which cannot go on long.
constexpr int kMaxRaces = 5;

json with_key(json match, std::string_view key) {
  match["_key"] = key;
  return match;
}

}  // namespace

Status StoreCounter::count(std::string_view project, std::string_view key,
                           const std::vector<Update>& updates, const Decide& decide,
                           const Status& busy) const {
  for (int round = 0; round < kMaxRaces; ++round) {
    for (const Update& update : updates) {
      auto matched =
          update_matched(store_, project, collection_, with_key(update.match, key), update.change);
      if (!matched) return matched.status();
      if (*matched) return Status::ok();
    }
    auto found = find_by_key(store_, project, collection_, key);
    if (!found) return found.status();
    Next next = decide(*found ? &**found : nullptr);
    switch (next.kind) {
      case Next::Kind::kRefuse:
        return next.refusal;
      case Next::Kind::kAgain:
        break;
      case Next::Kind::kInsert: {
        const Status inserted =
            insert_or_revive(store_, project, collection_, with_key(std::move(next.document), key));
        if (inserted.code() != store::kDuplicateKey) return inserted;
        break;
      }
      case Next::Kind::kUpdate: {
        auto matched = update_matched(store_, project, collection_,
                                      with_key(next.update.match, key), next.update.change);
        if (!matched) return matched.status();
        if (*matched) return Status::ok();
        break;
      }
    }
  }
  return busy;
}

StoreCounter::Update StoreCounter::within(const std::vector<Ceiling>& ceilings) {
  Update update{json::object(), added(ceilings)};
  for (const Ceiling& c : ceilings) {
    if (c.limit > 0) update.match[c.field + ":$lte"] = c.limit - c.amount;
  }
  return update;
}

const StoreCounter::Ceiling* StoreCounter::passed(const json* document,
                                                  const std::vector<Ceiling>& ceilings) {
  for (const Ceiling& c : ceilings) {
    const int64_t held = document ? document->value(c.field, int64_t{0}) : 0;
    if (c.limit > 0 && held + c.amount > c.limit) return &c;
  }
  return nullptr;
}

store::Change StoreCounter::added(const std::vector<Ceiling>& ceilings, int64_t times) {
  store::Change change;
  for (const Ceiling& c : ceilings) change.inc[c.field] = times * c.amount;
  return change;
}

void StoreCounter::adjust(std::string_view project, std::string_view key, store::Change change,
                          json match) const {
  (void)update_where(store_, project, collection_, with_key(std::move(match), key),
                     std::move(change));
}

Status StoreCounter::sweep(std::string_view project, const json& match, int64_t now_ms) const {
  return opbase::sweep(store_, project, collection_, match, now_ms);
}

}  // namespace opbase
