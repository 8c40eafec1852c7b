// ClientRegistry: the event streams this daemon holds (one per client), their subscriptions,
// and the limits on them (docs/api.md#realtime, "Limits"). Subscriptions are indexed by project
// and collection, so an event is judged only by the subscriptions of its collection.
//
// A stream's end is told on the HTTP front's thread (on_end), which must never wait: it only
// notes the client as gone, and the reader's next round drops it (drop_gone).
//
// Thread-safety: every method from any thread; one mutex guards the clients and their
// subscriptions (held while the reader sends an event to them: a push only queues), another the
// clients gone.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "journal/journal_event.hpp"
#include "opbase/held_stream.hpp"
#include "opbase/status.hpp"
#include "settings.hpp"
#include "subscriptions/subscription.hpp"

namespace opbase::realtime {

struct Client {
  std::string id;  // "rtc_..."
  std::string project;
  std::string address;
  std::unique_ptr<HeldStream> stream;
  // The user whose token made the first subscription ("" without a token); unset before it.
  std::optional<std::string> user;
  std::string resume_from;  // the Last-Event-ID it connected with, for its subscriptions
  std::map<std::string, Subscription> subscriptions;  // by id
  int64_t last_sent_ms = 0;
};

class ClientRegistry {
 public:
  ClientRegistry(const Settings& settings) : settings_(settings) {}

  // A new client from `address`, or RATE_LIMIT_EXCEEDED past the daemon's or the address's limit.
  Result<std::string> add(std::string project, std::string address, std::string resume_from,
                          int64_t now_ms);
  // Gives the client its stream once it is held (or drops it when `stream` is null).
  void attach(const std::string& client_id, std::unique_ptr<HeldStream> stream);
  // Called from the HTTP front's thread when a client's stream ends: never waits.
  void note_gone(const std::string& client_id);
  // Drops the clients gone since the last call; each one's project and id.
  std::vector<std::pair<std::string, std::string>> drop_gone();

  // The Last-Event-ID the client connected with ("" for none), or nullopt when this daemon does
  // not hold a stream of `project` with that id.
  std::optional<std::string> resume_of(std::string_view project, std::string_view client_id) const;
  // Adds `subscription` to the client, taking the client for `user` at its first subscription:
  // RATE_LIMIT_EXCEEDED past the subscriptions of a client or the clients of a user.
  Status subscribe(std::string_view project, std::string_view client_id, std::string_view user,
                   Subscription subscription);
  // Whether the subscription was there (and is gone now).
  bool unsubscribe(std::string_view project, std::string_view client_id, std::string_view user,
                   std::string_view subscription_id);

  // How a subscription whose scope is old gets it again (collection.read_access).
  using Refresh = std::function<void(std::string_view project, Subscription&)>;
  // Sends `event` to every subscription of its project and collection that it means something
  // to; how many it was sent to.
  size_t deliver(std::string_view project, const JournalEvent& event, int64_t now_ms,
                 const Refresh& refresh);
  // Sends `event` to the one subscription; false when it is gone.
  bool deliver_to(std::string_view client_id, std::string_view subscription_id,
                  const JournalEvent& event, int64_t now_ms, const Refresh& refresh);
  // Sends `reset` to the one subscription: the events since it asked for are gone.
  void reset(std::string_view client_id, std::string_view subscription_id, int64_t now_ms);
  // A heartbeat to every client that was sent nothing for `idle_ms`.
  void heartbeat(int64_t now_ms, int64_t idle_ms);

  std::vector<std::string> projects() const;  // those with a client, sorted
  size_t client_count() const;
  size_t subscription_count() const;

 private:
  // The clients of one project's collection, and the subscription of each.
  struct Listener {
    Client* client;
    Subscription* subscription;
  };
  static std::string index_key(std::string_view project, std::string_view collection);
  // With mu_ held.
  // The client `user` may act on: VALIDATION_ERROR unknown, FORBIDDEN another user's.
  Result<Client*> find_locked(std::string_view project, std::string_view client_id,
                              std::string_view user) const;
  void remove_locked(const std::string& client_id);
  void unindex_locked(const Client& client, const Subscription& subscription);
  bool send_locked(Client& client, Subscription& subscription, const JournalEvent& event,
                   int64_t now_ms, const Refresh& refresh);
  bool push_locked(Client& client, const std::string& bytes, int64_t now_ms);

  const Settings& settings_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<Client>> clients_;
  std::unordered_map<std::string, std::vector<Listener>> listeners_;  // by index_key
  std::unordered_map<std::string, int64_t> per_address_;
  // Clients by project, sorted, so the reader's list of projects costs no walk of the clients.
  std::map<std::string, int64_t> per_project_;
  std::unordered_map<std::string, int64_t> per_user_;  // by project and user
  size_t subscriptions_ = 0;

  std::mutex gone_mu_;
  std::vector<std::string> gone_;
};

}  // namespace opbase::realtime
