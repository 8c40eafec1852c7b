// SubscriptionStore: the streams and subscriptions of a project as its store keeps them, so
// that a subscription made through any daemon sharing the store reaches the daemon holding its
// stream (docs/api.md#realtime, "Several daemons"). A stream is a document of `_clients` (made at
// connect by the daemon holding it, removed when it ends); a subscription a document of
// `_subscriptions`, whose insert and delete raise realtime.subscribed and
// realtime.unsubscribed. Those events are kept, with the subscription, in the same journal as
// the documents' events, so the daemon holding the stream starts and stops the subscription at
// its place among them: every write after the op answered reaches it, none before it does.
// Thread-safety: as the DocumentStore: any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "settings.hpp"

namespace opbase::realtime {

inline constexpr std::string_view kSubscribedEvent = "realtime.subscribed";
inline constexpr std::string_view kUnsubscribedEvent = "realtime.unsubscribed";

class SubscriptionStore {
 public:
  SubscriptionStore(const Host& host, const Settings& settings)
      : store_(host), settings_(settings) {}

  Status add_client(std::string_view project, std::string_view client_id, int64_t now_ms) const;
  // The stream and its subscriptions are gone (the client left).
  Status remove_client(std::string_view project, std::string_view client_id, int64_t now_ms) const;
  // Checks the stream is `user`'s: VALIDATION_ERROR for no such stream, FORBIDDEN for another
  // user's. With `adding`, it takes the stream for `user` at its first subscription, and
  // refuses RATE_LIMIT_EXCEEDED past the streams of a user or the subscriptions of a stream.
  Status claim(std::string_view project, std::string_view client_id, std::string_view user,
               bool adding) const;
  // `subscription`: {"_key": its id, "client_id", "user", ...} (the realtime ops' record).
  Status add_subscription(std::string_view project, nlohmann::json subscription) const;
  // Whether the stream had that subscription (removed now).
  Result<bool> remove_subscription(std::string_view project, std::string_view client_id,
                                   std::string_view subscription_id, int64_t now_ms) const;

 private:
  Result<nlohmann::json> client(std::string_view project, std::string_view client_id) const;
  Result<int64_t> count(std::string_view project, std::string_view collection,
                        const nlohmann::json& match) const;

  DocumentStore store_;
  const Settings& settings_;
};

}  // namespace opbase::realtime
