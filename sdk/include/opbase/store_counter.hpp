// StoreCounter: named counts kept in the project's store, one document each in a collection of
// the plugin's, changed by conditional updates only, so several daemons sharing a store share
// them and racing callers never spend the same room twice. The SDK's rate limiter, the ai
// plugin's daily quota, the file plugin's usage ledger and the auth plugin's account throttle are
// built on it; each says what room is and what a refusal looks like, the counter runs the race.
//
// A count is take-then-act: the caller counts an event before it happens, and:
//   1. tries its conditional updates in order (each matches the document only while there is
//      room, and the store re-checks the match as it writes); the first that matches wins;
//   2. when none matched, reads the document and asks `decide` (with nullptr when there is none
//      yet), which answers a refusal, "again" (room came back in between), a first document to
//      insert, or one more conditional update made from what it read;
//   3. a lost insert (another caller made the document first) or a lost update goes back to 1.
// At most five rounds: a caller still racing after them gets `busy`, a refusal it may retry.
// Documents a caller no longer needs are swept (store_access.hpp) and an insert brings one back.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase {

class StoreCounter {
 public:
  // A conditional update of the counter's document: `match` (match syntax, `_` names allowed,
  // without `_key`, which the counter adds) and the change applied when it matches.
  struct Update {
    nlohmann::json match = nlohmann::json::object();
    store::Change change;
  };

  // What `decide` answers when no update matched.
  struct Next {
    enum class Kind { kRefuse, kAgain, kInsert, kUpdate };
    Kind kind = Kind::kAgain;
    Status refusal;           // kRefuse
    nlohmann::json document;  // kInsert: the first document, without `_key`
    Update update;            // kUpdate

    static Next refuse(Status why) { return {Kind::kRefuse, std::move(why), nullptr, {}}; }
    static Next again() { return {}; }
    static Next insert(nlohmann::json document) {
      return {Kind::kInsert, Status::ok(), std::move(document), {}};
    }
    static Next try_update(Update update) {
      return {Kind::kUpdate, Status::ok(), nullptr, std::move(update)};
    }
  };
  using Decide = std::function<Next(const nlohmann::json* document)>;

  // The usual room: counts of several fields, each under a ceiling. `amount` is what this event
  // adds to `field`; `limit` the most the field may hold (0 or less: no ceiling).
  struct Ceiling {
    std::string field;
    int64_t amount = 0;
    int64_t limit = 0;
  };
  // The update that adds each amount while every field stays within its limit.
  static Update within(const std::vector<Ceiling>& ceilings);
  // The first ceiling the event would pass, given the document (nullptr: none yet, all counts
  // 0); nullptr when there is room under every one.
  static const Ceiling* passed(const nlohmann::json* document,
                               const std::vector<Ceiling>& ceilings);
  // The change adding `times` each amount (-1: taking the event back).
  static store::Change added(const std::vector<Ceiling>& ceilings, int64_t times = 1);

  StoreCounter(const DocumentStore& store, std::string collection)
      : store_(store), collection_(std::move(collection)) {}

  // Counts one event on the document `key` (see the steps above): OK when counted; the
  // refusal `decide` gave; `busy` after five lost races; or the store's failure.
  Status count(std::string_view project, std::string_view key, const std::vector<Update>& updates,
               const Decide& decide, const Status& busy) const;

  // Applies `change` to the document `key` when it also matches `match`, unconditionally
  // otherwise: a give-back or refund. Best effort: a lost one only leaves the event counted.
  void adjust(std::string_view project, std::string_view key, store::Change change,
              nlohmann::json match = nlohmann::json::object()) const;

  // Moves the documents `match` selects to the deleted state (store_access.hpp sweep).
  Status sweep(std::string_view project, const nlohmann::json& match, int64_t now_ms) const;

 private:
  const DocumentStore& store_;
  const std::string collection_;
};

}  // namespace opbase
