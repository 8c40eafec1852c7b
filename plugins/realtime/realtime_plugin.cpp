// The realtime plugin (docs/api.md#realtime): live queries over one event stream per client.
//   GET /api/{endpoint_key}/realtime   the stream (server-sent events); its first event, connect,
//                                      names the client id
//   realtime.subscribe                 a live query on the stream: {client_id, collection, match,
//                                      filter?, project?, keys_only?, since?} → {subscription_id}
//   realtime.unsubscribe               {client_id, subscription_id}
// The events come from the store's kept events with their documents, read in id order by one
// thread (journal/event_reader.hpp), so an acknowledged write's event is never lost and a client
// that comes back within realtime.retention_s gets what it missed.
#include <memory>

#include "clients/client_registry.hpp"
#include "journal/event_reader.hpp"
#include "opbase/sdk.hpp"
#include "ops/realtime_ops.hpp"
#include "settings.hpp"
#include "subscriptions/subscription_store.hpp"

namespace {

using opbase::Access;
using opbase::Request;
using opbase::Status;
using namespace opbase::realtime;

class RealtimePlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    auto settings = Settings::load(host());
    if (!settings) return settings.status();
    settings_ = *settings;
    clients_ = std::make_unique<ClientRegistry>(settings_);
    subscriptions_ = std::make_unique<SubscriptionStore>(host(), settings_);
    reader_ = std::make_unique<EventReader>(
        host(), settings_, *clients_, *subscriptions_,
        [this](std::string_view project, Subscription& s) { ops_->refresh(project, s); });
    ops_ = std::make_unique<RealtimeOps>(host(), settings_, *clients_, *reader_, *subscriptions_);
    // A connect holds a lane thread for one store write; when every client of a restarted
    // daemon comes back at once, thousands wait their turn rather than being refused.
    r.size_lane(16, 16'384);
    r.endpoint_route("realtime", [this](opbase::RouteCall& call) { ops_->connect(call); });
    r.op("realtime.subscribe", Access::kUserOptional,
         [this](const Request& req) { return ops_->subscribe(req); });
    r.op("realtime.unsubscribe", Access::kUserOptional,
         [this](const Request& req) { return ops_->unsubscribe(req); });
    // The documents' events, and the subscriptions' (made through any daemon sharing the store).
    for (const char* pattern : {"document.*", "realtime.*"}) {
      r.subscribe_durable_documents(pattern);
      // Woken by this daemon's writes; other daemons' are read every realtime.poll_ms.
      r.subscribe(pattern, [this](const opbase::Event&) { reader_->wake(); });
    }
    if (Status s = r.status(); !s) return s;
    reader_->start();
    return Status::ok();
  }

  void shutdown() override {
    if (reader_) reader_->stop();
  }

 private:
  Settings settings_;
  std::unique_ptr<ClientRegistry> clients_;
  std::unique_ptr<SubscriptionStore> subscriptions_;
  std::unique_ptr<EventReader> reader_;
  std::unique_ptr<RealtimeOps> ops_;
};

}  // namespace

OPBASE_PLUGIN(RealtimePlugin, "realtime", "1.0.0")
