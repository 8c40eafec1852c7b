// The webhooks plugin (docs/api.md#webhooks): keeps the document.* and user.* events of store
// writes durably (in the writes' own transactions), turns them into an outbox of signed messages
// per endpoint, and delivers them at least once with retries. See outbox/outbox.hpp for the
// guarantees and delivery/delivery_workers.hpp for the threads.

#include <memory>
#include <opbase/document_store.hpp>
#include <opbase/host_services.hpp>
#include <opbase/sdk.hpp>

#include "delivery/delivery_workers.hpp"
#include "endpoints/endpoints.hpp"
#include "ops/webhook_ops.hpp"
#include "outbox/outbox.hpp"
#include "settings.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

class WebhooksPlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    auto config = read_config(host());
    if (!config) return config.status();
    config_ = std::move(*config);
    store_ = std::make_unique<DocumentStore>(host());
    endpoints_ = std::make_unique<Endpoints>(*store_);
    outbox_ = std::make_unique<Outbox>(*store_, config_.retry_delays_ms);
    for (const char* pattern : {"document.*", "user.*", "file.*"}) {
      r.subscribe_durable(pattern);
      r.subscribe(pattern, [this](const Event&) {
        if (workers_) workers_->events_arrived();
      });
    }
    if (Status s = bootstrap_endpoints(); !s) return s;
    workers_ = std::make_unique<DeliveryWorkers>(host(), config_, *endpoints_, *outbox_);
    ops_ = std::make_unique<WebhookOps>(host(), config_, *endpoints_, *outbox_, *workers_);
    register_ops(r);
    if (Status s = r.status(); !s) return s;
    workers_->start();
    return Status::ok();
  }

  void shutdown() override {
    if (workers_) workers_->stop();
    workers_.reset();
  }

 private:
  void register_ops(Registrar& r) {
    const std::pair<const char*, Result<Reply> (WebhookOps::*)(const Request&) const> ops[] = {
        {"webhooks.endpoint.create", &WebhookOps::create_endpoint},
        {"webhooks.endpoint.update", &WebhookOps::update_endpoint},
        {"webhooks.endpoint.delete", &WebhookOps::delete_endpoint},
        {"webhooks.endpoint.list", &WebhookOps::list_endpoints},
        {"webhooks.endpoint.rotate_secret", &WebhookOps::rotate_secret},
        {"webhooks.message.list", &WebhookOps::list_messages},
        {"webhooks.message.resend", &WebhookOps::resend_message}};
    for (const auto& entry : ops) {
      // A copy, not the structured binding: clang 14 cannot capture those.
      const auto handler = entry.second;
      r.op(entry.first, Access::kAdmin,
           [this, handler](const Request& req) { return ((*ops_).*handler)(req); });
    }
  }

  Status bootstrap_endpoints() {
    auto projects = list_projects(host());
    if (!projects) return projects.status();
    for (const std::string& id : *projects) {
      if (Status s = endpoints_->bootstrap(id, config_, host().now_ms()); !s) {
        return Status(s.code(),
                      "webhooks: the configured endpoint of project " + id + ": " + s.message());
      }
    }
    return Status::ok();
  }

  WebhooksConfig config_;
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<Endpoints> endpoints_;
  std::unique_ptr<Outbox> outbox_;
  std::unique_ptr<DeliveryWorkers> workers_;
  std::unique_ptr<WebhookOps> ops_;
};

}  // namespace
}  // namespace opbase::webhooks

OPBASE_PLUGIN(opbase::webhooks::WebhooksPlugin, "webhooks", "0.1.0")
