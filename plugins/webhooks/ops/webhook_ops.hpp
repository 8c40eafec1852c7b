// The admin ops of webhooks (the ground of a management console): endpoints
// (webhooks.endpoint.create, .update, .delete, .list, .rotate_secret) and messages
// (webhooks.message.list with every attempt, webhooks.message.resend). Every op needs an
// admin's token. Parameters are checked with VALIDATION_ERROR naming the field; an unknown id is
// VALIDATION_ERROR with details.reason "not_found". Secrets are returned by create and
// rotate_secret only.
// Thread-safety: handlers run concurrently; the parts they use are thread-safe.
#pragma once

#include <opbase/sdk.hpp>

#include "delivery/delivery_workers.hpp"
#include "endpoints/endpoints.hpp"
#include "outbox/outbox.hpp"
#include "settings.hpp"

namespace opbase::webhooks {

class WebhookOps {
 public:
  WebhookOps(const Host& host, const WebhooksConfig& config, const Endpoints& endpoints,
             const Outbox& outbox, DeliveryWorkers& workers)
      : host_(host), config_(config), endpoints_(endpoints), outbox_(outbox), workers_(workers) {}

  Result<Reply> create_endpoint(const Request& request) const;
  Result<Reply> update_endpoint(const Request& request) const;
  Result<Reply> delete_endpoint(const Request& request) const;
  Result<Reply> list_endpoints(const Request& request) const;
  Result<Reply> rotate_secret(const Request& request) const;
  Result<Reply> list_messages(const Request& request) const;
  Result<Reply> resend_message(const Request& request) const;

 private:
  // The endpoint fields of a create or update body, checked; `creating` requires url.
  Result<nlohmann::json> endpoint_fields(const nlohmann::json& body, bool creating) const;

  const Host& host_;
  const WebhooksConfig& config_;
  const Endpoints& endpoints_;
  const Outbox& outbox_;
  DeliveryWorkers& workers_;
};

}  // namespace opbase::webhooks
