// The implementation of abi.h's opbase_host_api: every function a plugin may call. Each one
// checks its arguments, never throws, and copies what it keeps.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>

#include "log/log.hpp"
#include "opbase/internal/str.hpp"
#include "opbase/json_text.hpp"
#include "opbase/version.hpp"
#include "plugin_host/host_context.hpp"
#include "plugin_host/response.hpp"
#include "plugin_host/route_stream.hpp"

namespace opbase::host {
namespace {

bool bad(opbase_str s) { return s.ptr == nullptr && s.len > 0; }

// Registration is allowed only inside init; a refused one is remembered so the loader can
// refuse the whole plugin even if init ignores the return code.
opbase_rc registration_result(opbase_plugin* plugin, const Status& status) {
  if (status) return OPBASE_RC_OK;
  if (plugin->refused_registration.empty()) plugin->refused_registration = status.message();
  return OPBASE_RC_REFUSED;
}

// After init the handle is shared by every thread, so a late call only logs and is refused.
opbase_rc refused_outside_init(opbase_plugin* plugin, std::string_view call, opbase_str name) {
  log::warn("plugin " + plugin->name,
            std::string(call) + " '" + std::string(view(name)) + "' called outside init: refused");
  return OPBASE_RC_REFUSED;
}

opbase_rc register_op(opbase_plugin* plugin, opbase_str name, opbase_access access,
                      opbase_op_fn handler, void* handler_state) {
  if (plugin == nullptr || bad(name)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "register_op", name);
  return registration_result(plugin, plugin->context->registry->add_op(
                                         plugin->name, view(name), access, handler, handler_state));
}

opbase_rc register_lane_op(opbase_plugin* plugin, opbase_str name, opbase_access access,
                           opbase_op_fn handler, void* handler_state) {
  if (plugin == nullptr || bad(name)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "register_lane_op", name);
  return registration_result(plugin, plugin->context->registry->add_lane_op(
                                         plugin->name, view(name), access, handler, handler_state));
}

opbase_rc size_lane(opbase_plugin* plugin, uint32_t threads, uint32_t queue) {
  if (plugin == nullptr) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "size_lane", {"lane", 4});
  return registration_result(
      plugin, plugin->context->registry->size_lane(
                  plugin->name, LaneSize{static_cast<int>(std::min<uint32_t>(threads, 1u << 20)),
                                         static_cast<size_t>(queue)}));
}

opbase_rc register_route(opbase_plugin* plugin, opbase_str prefix, opbase_route_fn handler,
                         void* handler_state) {
  if (plugin == nullptr || bad(prefix)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "register_route", prefix);
  return registration_result(plugin, plugin->context->registry->add_route(
                                         plugin->name, view(prefix), handler, handler_state));
}

opbase_rc register_endpoint_route(opbase_plugin* plugin, opbase_str name, opbase_route_fn handler,
                                  void* handler_state) {
  if (plugin == nullptr || bad(name)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "register_endpoint_route", name);
  return registration_result(plugin, plugin->context->registry->add_endpoint_route(
                                         plugin->name, view(name), handler, handler_state));
}

opbase_rc provide_service(opbase_plugin* plugin, opbase_str name, opbase_service_fn fn,
                          void* fn_state) {
  if (plugin == nullptr || bad(name)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "provide_service", name);
  return registration_result(
      plugin, plugin->context->registry->add_service(plugin->name, view(name), fn, fn_state));
}

opbase_rc subscribe(opbase_plugin* plugin, opbase_str type, opbase_event_fn fn, void* fn_state) {
  if (plugin == nullptr || bad(type)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, "subscribe", type);
  if (fn == nullptr || !EventBus::valid_pattern(view(type))) {
    return registration_result(plugin,
                               Status::validation("subscription '" + std::string(view(type)) +
                                                  "' is not an event type, 'area.*' or '*'"));
  }
  plugin->pending_subscriptions.push_back({std::string(view(type)), fn, fn_state});
  return OPBASE_RC_OK;
}

opbase_rc keep_durably(opbase_plugin* plugin, opbase_str type, bool documents) {
  const char* what = documents ? "subscribe_durable_documents" : "subscribe_durable";
  if (plugin == nullptr || bad(type)) return OPBASE_RC_REFUSED;
  if (!plugin->in_init) return refused_outside_init(plugin, what, type);
  if (!EventBus::valid_pattern(view(type))) {
    return registration_result(
        plugin, Status::validation("durable subscription '" + std::string(view(type)) +
                                   "' is not an event type, 'area.*' or '*'"));
  }
  plugin->pending_durable.push_back({std::string(view(type)), documents});
  return OPBASE_RC_OK;
}

opbase_rc subscribe_durable(opbase_plugin* plugin, opbase_str type) {
  return keep_durably(plugin, type, /*documents=*/false);
}

opbase_rc subscribe_durable_documents(opbase_plugin* plugin, opbase_str type) {
  return keep_durably(plugin, type, /*documents=*/true);
}

// metric_add, metric_set and metric_observe: one PluginMetrics call each. Without metrics (tests)
// the value is accepted and dropped.
template <bool (PluginMetrics::*record)(std::string_view, std::string_view, double)>
opbase_rc metric(opbase_plugin* plugin, opbase_str name, double value) {
  if (plugin == nullptr || bad(name)) return OPBASE_RC_REFUSED;
  PluginMetrics* metrics = plugin->context->plugin_metrics;
  if (metrics == nullptr) return OPBASE_RC_OK;
  return (metrics->*record)(plugin->name, view(name), value) ? OPBASE_RC_OK : OPBASE_RC_REFUSED;
}

opbase_rc respond(opbase_response* response, opbase_part part, opbase_str json) {
  if (bad(json)) return OPBASE_RC_REFUSED;
  return response_set_part(response, part, json);
}

opbase_rc respond_error(opbase_response* response, opbase_str code, opbase_str message,
                        opbase_str details, int http_status) {
  if (bad(code) || bad(message) || bad(details)) return OPBASE_RC_REFUSED;
  return response_set_error(response, code, message, details, http_status);
}

opbase_rc answer_failure(const Status& status, opbase_service_result_fn on_result,
                         void* caller_ctx) {
  const std::string details = status.details().is_null() ? "" : status.details().dump();
  on_result(caller_ctx, OPBASE_RC_ERROR, {}, str(status.code()), str(status.message()),
            str(details));
  return OPBASE_RC_ERROR;
}

opbase_rc call_service(opbase_plugin* plugin, opbase_str name, opbase_str project_id,
                       opbase_str input, opbase_service_result_fn on_result, void* caller_ctx) {
  if (plugin == nullptr || on_result == nullptr || bad(name) || bad(project_id) || bad(input)) {
    return OPBASE_RC_REFUSED;
  }
  const ServiceEntry* service = plugin->context->registry->find_service(view(name));
  if (service == nullptr) {
    const std::string message =
        "no loaded plugin provides the service '" + std::string(view(name)) + "'";
    on_result(caller_ctx, OPBASE_RC_NOT_FOUND, {}, str(code::kInternalError), str(message), {});
    return OPBASE_RC_NOT_FOUND;
  }
  if (service->host_fn) {
    Result<std::string> result = service->host_fn(*plugin, view(project_id), view(input));
    if (!result) return answer_failure(result.status(), on_result, caller_ctx);
    on_result(caller_ctx, OPBASE_RC_OK, str(*result), {}, {}, {});
    return OPBASE_RC_OK;
  }
  opbase_response answer;
  service->fn(service->state, project_id, input, &answer);
  if (answer.failed) {
    on_result(caller_ctx, OPBASE_RC_ERROR, {}, str(answer.code), str(answer.message),
              str(answer.details));
    return OPBASE_RC_ERROR;
  }
  const std::string_view data = answer.data ? std::string_view(*answer.data) : "null";
  on_result(caller_ctx, OPBASE_RC_OK, str(data), {}, {}, {});
  return OPBASE_RC_OK;
}

opbase_rc publish(opbase_plugin* plugin, opbase_str type, opbase_str project_id,
                  opbase_str payload) {
  if (plugin == nullptr || bad(type) || bad(project_id) || bad(payload)) return OPBASE_RC_REFUSED;
  const std::string_view type_text = view(type);
  if (type_text.empty() || type_text.find('*') != std::string_view::npos) return OPBASE_RC_REFUSED;
  const std::string_view payload_text = view(payload);
  if (!json_text::is_object(payload_text)) return OPBASE_RC_REFUSED;
  plugin->context->bus->publish(BusEvent{std::string(type_text), std::string(view(project_id)),
                                         std::string(payload_text), plugin->context->now_ms()});
  return OPBASE_RC_OK;
}

opbase_rc config_get(opbase_plugin* plugin, opbase_str key, opbase_config_value_fn on_value,
                     void* caller_ctx) {
  if (plugin == nullptr || on_value == nullptr || bad(key)) return OPBASE_RC_REFUSED;
  auto value = plugin->context->config->get(view(key));
  if (!value) return OPBASE_RC_NOT_FOUND;
  on_value(caller_ctx, str(*value));
  return OPBASE_RC_OK;
}

void log_line(opbase_plugin* plugin, opbase_log_level level, opbase_str message) {
  if (plugin == nullptr || bad(message)) return;
  log::Level l = log::Level::kInfo;
  switch (level) {
    case OPBASE_LOG_DEBUG:
      l = log::Level::kDebug;
      break;
    case OPBASE_LOG_INFO:
      l = log::Level::kInfo;
      break;
    case OPBASE_LOG_WARNING:
      l = log::Level::kWarning;
      break;
    case OPBASE_LOG_ERROR:
      l = log::Level::kError;
      break;
  }
  log::write(l, "plugin " + plugin->name, view(message));
}

int64_t now_ms(opbase_plugin* plugin) { return plugin->context->now_ms(); }

}  // namespace

const opbase_host_api* host_api() {
  static const opbase_host_api api = {
      sizeof(opbase_host_api),
      OPBASE_ABI_MAJOR,
      OPBASE_ABI_MINOR,
      OPBASE_VERSION,
      &register_op,
      &provide_service,
      &subscribe,
      &respond,
      &respond_error,
      &call_service,
      &publish,
      &config_get,
      &log_line,
      &now_ms,
      &subscribe_durable,
      &metric<&PluginMetrics::add>,
      &metric<&PluginMetrics::set>,
      &metric<&PluginMetrics::observe>,
      &register_lane_op,
      &size_lane,
      &register_route,
      &route_header,
      &route_read,
      &route_respond,
      &route_respond_error,
      &route_start,
      &route_write,
      &route_send_file,
      &register_endpoint_route,
      &route_hold,
      &held_push,
      &held_close,
      &held_queued_bytes,
      &held_release,
      &subscribe_durable_documents,
  };
  return &api;
}

}  // namespace opbase::host
