// The SDK's side of the plugin edge: the descriptor, init/shutdown trampolines, and the adapters
// that turn C calls into C++ handler calls. Nothing thrown inside a handler leaves this file.
#include <deque>
#include <exception>
#include <memory>
#include <string>

#include "opbase/internal/str.hpp"
#include "opbase/plugin.hpp"

namespace opbase {
namespace {

sdk_detail::PluginFactory g_factory = nullptr;  // one plugin class per shared object

}  // namespace

// Everything one loaded plugin owns: the instance, its Host, and the registered callables
// (deques keep their addresses stable, because the host holds pointers to them).
struct PluginRuntime {
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<Host> host;
  struct BoundOp {
    PluginRuntime* runtime;
    OpHandler fn;
  };
  struct BoundService {
    PluginRuntime* runtime;
    ServiceHandler fn;  // one of the two is set
    TextServiceHandler text_fn;
  };
  struct BoundSubscription {
    PluginRuntime* runtime;
    EventHandler fn;
  };
  struct BoundRoute {
    PluginRuntime* runtime;
    RouteHandler fn;
  };
  std::deque<BoundOp> ops;
  std::deque<BoundRoute> routes;
  std::deque<BoundService> services;
  std::deque<BoundSubscription> subscriptions;

  static void attach(Plugin& p, const Host* h) { p.host_ = h; }
  static Registrar make_registrar(PluginRuntime* r) { return Registrar(r); }
};

namespace {

void write_error(const opbase_host_api& api, opbase_response* response, const Status& status) {
  const std::string details = status.details().is_null() ? std::string() : status.details().dump();
  api.respond_error(response, str(status.code()), str(status.message()), str(details), 0);
}

// A handler that throws is a bug in the plugin: the client gets INTERNAL_ERROR (the host adds
// the request id), the log gets the exception text.
void report_exception(const Host& host, opbase_response* response, std::string_view what,
                      std::string_view where, std::string_view request_id) {
  host.error(std::string(where) + " threw: " + std::string(what) +
             (request_id.empty() ? "" : " (request " + std::string(request_id) + ")"));
  write_error(host.api(), response, Status::internal("internal error"));
}

opbase_rc call_op(void* state, const opbase_request* req, opbase_response* response) {
  auto* bound = static_cast<PluginRuntime::BoundOp*>(state);
  const Host& host = *bound->runtime->host;
  const std::string_view op = view(req->op);
  try {
    const nlohmann::json body = nlohmann::json::parse(view(req->body));
    const Request request{op,
                          view(req->called_as),
                          view(req->body),
                          body,
                          view(req->project_id),
                          view(req->user_id),
                          view(req->user_claims),
                          view(req->request_id),
                          view(req->client_address),
                          view(req->bearer_token)};
    Result<Reply> result = bound->fn(request);
    if (!result) {
      write_error(host.api(), response, result.status());
      return OPBASE_RC_ERROR;
    }
    const std::string data =
        result->data_text ? std::move(*result->data_text) : result->data.dump();
    bool accepted = host.api().respond(response, OPBASE_PART_DATA, str(data)) == OPBASE_RC_OK;
    if (result->meta) {
      accepted = accepted && host.api().respond(response, OPBASE_PART_META,
                                                str(result->meta->dump())) == OPBASE_RC_OK;
    }
    if (result->top_level) {
      accepted = accepted && host.api().respond(response, OPBASE_PART_TOP_LEVEL,
                                                str(result->top_level->dump())) == OPBASE_RC_OK;
    }
    if (!accepted) {
      // meta and top_level must be objects: a reply that breaks that is the plugin's bug.
      report_exception(host, response,
                       "the host refused the reply (meta and top_level must be objects)", op,
                       view(req->request_id));
      return OPBASE_RC_ERROR;
    }
    return OPBASE_RC_OK;
  } catch (const std::exception& e) {
    report_exception(host, response, e.what(), op, view(req->request_id));
  } catch (...) {
    report_exception(host, response, "unknown exception", op, view(req->request_id));
  }
  return OPBASE_RC_ERROR;
}

opbase_rc call_service(void* state, opbase_str project_id, opbase_str input,
                       opbase_response* response) {
  auto* bound = static_cast<PluginRuntime::BoundService*>(state);
  const Host& host = *bound->runtime->host;
  try {
    if (bound->text_fn) {
      Result<std::string> text = bound->text_fn(view(project_id), view(input));
      if (!text) {
        write_error(host.api(), response, text.status());
        return OPBASE_RC_ERROR;
      }
      host.api().respond(response, OPBASE_PART_DATA, str(*text));
      return OPBASE_RC_OK;
    }
    const nlohmann::json parsed = nlohmann::json::parse(view(input));
    Result<nlohmann::json> result = bound->fn(view(project_id), parsed);
    if (!result) {
      write_error(host.api(), response, result.status());
      return OPBASE_RC_ERROR;
    }
    host.api().respond(response, OPBASE_PART_DATA, str(result->dump()));
    return OPBASE_RC_OK;
  } catch (const std::exception& e) {
    report_exception(host, response, e.what(), "a service", {});
  } catch (...) {
    report_exception(host, response, "unknown exception", "a service", {});
  }
  return OPBASE_RC_ERROR;
}

void call_subscription(void* state, const opbase_event* event) {
  auto* bound = static_cast<PluginRuntime::BoundSubscription*>(state);
  const Host& host = *bound->runtime->host;
  try {
    const nlohmann::json payload = nlohmann::json::parse(view(event->payload));
    bound->fn(Event{view(event->type), view(event->project_id), payload, event->time_ms});
  } catch (const std::exception& e) {
    host.error("event handler for " + std::string(view(event->type)) + " threw: " + e.what());
  } catch (...) {
    host.error("event handler for " + std::string(view(event->type)) + " threw");
  }
}

opbase_rc init_plugin(const opbase_host_api* api, opbase_plugin* handle, void** state) {
  auto runtime = std::make_unique<PluginRuntime>();
  runtime->host = std::make_unique<Host>(api, handle);
  try {
    runtime->plugin = g_factory();
    PluginRuntime::attach(*runtime->plugin, runtime->host.get());
    Registrar registrar = PluginRuntime::make_registrar(runtime.get());
    Status status = runtime->plugin->init(registrar);
    if (status.is_ok()) status = registrar.status();
    if (!status.is_ok()) {
      runtime->host->error("init failed: " + status.to_string());
      return OPBASE_RC_ERROR;
    }
  } catch (const std::exception& e) {
    runtime->host->error(std::string("init threw: ") + e.what());
    return OPBASE_RC_ERROR;
  } catch (...) {
    runtime->host->error("init threw an unknown exception");
    return OPBASE_RC_ERROR;
  }
  *state = runtime.release();
  return OPBASE_RC_OK;
}

void shutdown_plugin(void* state) {
  std::unique_ptr<PluginRuntime> runtime(static_cast<PluginRuntime*>(state));
  if (!runtime) return;
  try {
    runtime->plugin->shutdown();
  } catch (const std::exception& e) {
    runtime->host->error(std::string("shutdown threw: ") + e.what());
  } catch (...) {
    runtime->host->error("shutdown threw an unknown exception");
  }
}

void call_route(void* state, const opbase_route_request* request, opbase_stream* stream) {
  auto* bound = static_cast<PluginRuntime::BoundRoute*>(state);
  const Host& host = *bound->runtime->host;
  RouteCall call(host.api(), *request, stream);
  try {
    bound->fn(call);
    return;
  } catch (const std::exception& e) {
    host.error("route " + std::string(call.target().substr(0, call.target().find('?'))) +
               " threw: " + e.what() + " (request " + std::string(call.request_id()) + ")");
  } catch (...) {
    host.error("route threw a non-exception (request " + std::string(call.request_id()) + ")");
  }
  // The host answers INTERNAL_ERROR for a handler that did not answer; one that had started its
  // answer is cut off there.
}

}  // namespace

Status Registrar::route(std::string_view prefix, RouteHandler handler) {
  const Host& host = *runtime_->host;
  if (host.abi_minor() < 3) {
    return keep(
        Status::internal("route " + std::string(prefix) + " needs a host of ABI 1.3 or newer"));
  }
  auto& bound =
      runtime_->routes.emplace_back(PluginRuntime::BoundRoute{runtime_, std::move(handler)});
  if (host.api().register_route(host.plugin(), str(prefix), &call_route, &bound) != OPBASE_RC_OK) {
    return keep(Status::internal("route " + std::string(prefix) + " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::endpoint_route(std::string_view name, RouteHandler handler) {
  const Host& host = *runtime_->host;
  if (host.abi_minor() < 4) {
    return keep(Status::internal("endpoint route " + std::string(name) +
                                 " needs a host of ABI 1.4 or newer"));
  }
  auto& bound =
      runtime_->routes.emplace_back(PluginRuntime::BoundRoute{runtime_, std::move(handler)});
  if (host.api().register_endpoint_route(host.plugin(), str(name), &call_route, &bound) !=
      OPBASE_RC_OK) {
    return keep(
        Status::internal("endpoint route " + std::string(name) + " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::keep(Status s) {
  if (!s.is_ok() && first_failure_.is_ok()) first_failure_ = s;
  return s;
}

Status Registrar::op(std::string_view name, Access access, OpHandler handler) {
  auto& bound = runtime_->ops.emplace_back(PluginRuntime::BoundOp{runtime_, std::move(handler)});
  const Host& host = *runtime_->host;
  if (host.api().register_op(host.plugin(), str(name), static_cast<opbase_access>(access), &call_op,
                             &bound) != OPBASE_RC_OK) {
    return keep(Status::internal("op " + std::string(name) + " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::lane_op(std::string_view name, Access access, OpHandler handler) {
  const Host& host = *runtime_->host;
  if (host.abi_minor() < 2) return op(name, access, std::move(handler));
  auto& bound = runtime_->ops.emplace_back(PluginRuntime::BoundOp{runtime_, std::move(handler)});
  if (host.api().register_lane_op(host.plugin(), str(name), static_cast<opbase_access>(access),
                                  &call_op, &bound) != OPBASE_RC_OK) {
    return keep(Status::internal("lane op " + std::string(name) + " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::size_lane(int threads, int queue) {
  const Host& host = *runtime_->host;
  if (host.abi_minor() < 2) return Status::ok();
  if (threads < 1 || queue < 1 ||
      host.api().size_lane(host.plugin(), static_cast<uint32_t>(threads),
                           static_cast<uint32_t>(queue)) != OPBASE_RC_OK) {
    return keep(Status::internal("the lane size " + std::to_string(threads) + " threads, queue " +
                                 std::to_string(queue) + " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::service(std::string_view name, ServiceHandler handler) {
  return provide(name, std::move(handler), nullptr);
}

Status Registrar::text_service(std::string_view name, TextServiceHandler handler) {
  return provide(name, nullptr, std::move(handler));
}

Status Registrar::provide(std::string_view name, ServiceHandler fn, TextServiceHandler text_fn) {
  auto& bound = runtime_->services.emplace_back(
      PluginRuntime::BoundService{runtime_, std::move(fn), std::move(text_fn)});
  const Host& host = *runtime_->host;
  if (host.api().provide_service(host.plugin(), str(name), &call_service, &bound) != OPBASE_RC_OK) {
    return keep(Status::internal("service " + std::string(name) + " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::subscribe(std::string_view event_type, EventHandler handler) {
  auto& bound = runtime_->subscriptions.emplace_back(
      PluginRuntime::BoundSubscription{runtime_, std::move(handler)});
  const Host& host = *runtime_->host;
  if (host.api().subscribe(host.plugin(), str(event_type), &call_subscription, &bound) !=
      OPBASE_RC_OK) {
    return keep(Status::internal("subscription to " + std::string(event_type) +
                                 " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::subscribe_durable(std::string_view event_type) {
  const Host& host = *runtime_->host;
  if (host.abi_minor() < 1) {
    return keep(Status::internal("this host (ABI 1." + std::to_string(host.abi_minor()) +
                                 ") keeps no events durably; it needs ABI 1.1"));
  }
  if (host.api().subscribe_durable(host.plugin(), str(event_type)) != OPBASE_RC_OK) {
    return keep(Status::internal("durable subscription to " + std::string(event_type) +
                                 " was refused by the host"));
  }
  return Status::ok();
}

Status Registrar::subscribe_durable_documents(std::string_view event_type) {
  const Host& host = *runtime_->host;
  if (host.abi_minor() < 4) {
    return keep(Status::internal("this host (ABI 1." + std::to_string(host.abi_minor()) +
                                 ") keeps no documents with its events; it needs ABI 1.4"));
  }
  if (host.api().subscribe_durable_documents(host.plugin(), str(event_type)) != OPBASE_RC_OK) {
    return keep(Status::internal("durable subscription to " + std::string(event_type) +
                                 " was refused by the host"));
  }
  return Status::ok();
}

namespace sdk_detail {

const opbase_plugin_descriptor* make_descriptor(opbase_plugin_descriptor* storage, const char* name,
                                                const char* version, PluginFactory factory) {
  g_factory = factory;
  storage->struct_size = sizeof(opbase_plugin_descriptor);
  storage->abi_major = OPBASE_ABI_MAJOR;
  storage->abi_minor = OPBASE_ABI_MINOR;
  storage->name = name;
  storage->version = version;
  storage->init = &init_plugin;
  storage->shutdown = &shutdown_plugin;
  return storage;
}

}  // namespace sdk_detail
}  // namespace opbase
