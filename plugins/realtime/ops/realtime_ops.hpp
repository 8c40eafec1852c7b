// The realtime ops and the stream (docs/api.md#realtime): GET /api/{endpoint_key}/realtime holds
// an event stream whose first event names its client id; realtime.subscribe adds a live query to
// it, checked as collection.find checks its query (the collection plugin's
// collection.read_access answers who may read what), and realtime.unsubscribe removes one. The
// caller's bearer token travels with the ops, never in the stream's URL; the stream belongs to
// the user whose token made its first subscription. The ops write the subscription to the
// store (subscription_store.hpp), so they may reach any daemon sharing it: the one holding the
// stream starts the subscription when its event reader meets it.
// Thread-safety: every handler may run concurrently.
#pragma once

#include "clients/client_registry.hpp"
#include "journal/event_reader.hpp"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "opbase/route.hpp"
#include "settings.hpp"
#include "subscriptions/subscription_store.hpp"

namespace opbase::realtime {

class RealtimeOps {
 public:
  RealtimeOps(const Host& host, const Settings& settings, ClientRegistry& clients,
              EventReader& reader, const SubscriptionStore& subscriptions)
      : host_(host),
        settings_(settings),
        clients_(clients),
        reader_(reader),
        subscriptions_(subscriptions) {}

  // GET /api/{endpoint_key}/realtime: the stream.
  void connect(RouteCall& call);
  Result<Reply> subscribe(const Request& request);
  Result<Reply> unsubscribe(const Request& request);

  // Asks the collection plugin again what the subscriber may read (the rules may have changed).
  void refresh(std::string_view project, Subscription& subscription) const;

 private:
  // collection.read_access for `input`: the scope, nullopt when nothing may be read.
  Result<std::optional<store::Scope>> read_access(std::string_view project,
                                                  const nlohmann::json& input) const;

  const Host& host_;
  const Settings& settings_;
  ClientRegistry& clients_;
  EventReader& reader_;
  const SubscriptionStore& subscriptions_;
};

}  // namespace opbase::realtime
