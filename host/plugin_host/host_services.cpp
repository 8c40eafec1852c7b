// The host's own services (see host_services.hpp).
#include "plugin_host/host_services.hpp"

#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mail/mail_service.hpp"
#include "store/store_service.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// A host service's body, with an exception turned into INTERNAL_ERROR naming the service.
template <typename Body>
Result<std::string> guarded(std::string_view service, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return Status::internal(std::string(service) + ": " + e.what());
  }
}

Result<std::string> run_store_service(const HostContext& context, const opbase_plugin& caller,
                                      const StoreVerb& verb, std::string_view project_id,
                                      std::string_view input) {
  ProjectStore* store = context.stores ? context.stores->of(project_id) : nullptr;
  if (store == nullptr) {
    return Status::internal("no document store is open for project '" + std::string(project_id) +
                            "'");
  }
  // Only writes raise events; reads skip building the sink.
  std::optional<StoreEventSink> sink;
  if (verb.writes) {
    sink = StoreEventSink{std::string(project_id), context.durable,
                          [bus = context.bus](const BusEvent& e) {
                            if (bus != nullptr) bus->publish(e);
                          },
                          context.now_ms()};
  }
  const auto started = std::chrono::steady_clock::now();
  auto answer = verb.run(*store, caller.name, input, sink ? &*sink : nullptr);
  context.stores->record_call(
      verb.name, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return answer;
}

Result<std::string> run_mail_service(const HostContext& context, std::string_view project_id,
                                     std::string_view input) {
  if (context.mailer == nullptr) return Status::internal("no mailer is configured");
  const json request = json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) {
    return Status::validation(std::string(kMailSendService) + ": input is not valid JSON");
  }
  auto sent = call_mail_service(*context.mailer, project_id, request);
  if (!sent) return sent.status();
  return sent->dump();
}

// Background work (webhook delivery after a restart) needs every project, not only the ones
// requests happen to name.
Result<std::string> list_projects(const HostContext& context, std::string_view, std::string_view) {
  return json{
      {"projects", context.stores ? context.stores->project_ids() : std::vector<std::string>{}}}
      .dump();
}

Result<std::string> server_url(const HostContext& context, std::string_view, std::string_view) {
  const std::string url = context.listening_url ? context.listening_url() : std::string();
  if (url.empty()) return Status::internal("server.url: the daemon does not listen yet");
  return json{{"url", url}}.dump();
}

Result<std::string> list_audit(const HostContext& context, std::string_view project,
                               std::string_view input) {
  if (context.audit == nullptr) return Status::internal("audit.list: no audit log");
  const json request = json::parse(input, nullptr, /*allow_exceptions=*/false);
  const json limit = request.is_object() ? request.value("limit", json(50)) : json(50);
  const json offset = request.is_object() ? request.value("offset", json(0)) : json(0);
  if (!limit.is_number_integer() || limit.get<int64_t>() < 1 || limit.get<int64_t>() > 500 ||
      !offset.is_number_integer() || offset.get<int64_t>() < 0) {
    return Status::validation("audit.list takes limit 1-500 and offset >= 0");
  }
  auto page = context.audit->list(project, limit.get<int64_t>(), offset.get<int64_t>());
  if (!page) return page.status();
  return page->dump();
}

// The host's services but the store's (store_verbs() lists those): name, what a thrown
// exception is reported as, and the body, which gets the calling project and the input text.
struct HostService {
  std::string_view name;
  std::string_view area;
  Result<std::string> (*run)(const HostContext&, std::string_view project, std::string_view input);
};

constexpr HostService kHostServices[] = {
    {kMailSendService, "mail", run_mail_service},
    {"projects.list", "projects", list_projects},
    {"server.url", "server", server_url},
    {"audit.list", "audit", list_audit},
};

}  // namespace

Status register_host_services(Registry& registry, const HostContext& context) {
  const HostContext* ctx = &context;
  for (const StoreVerb& verb : store_verbs()) {
    const std::string name = std::string(kStoreServicePrefix) + std::string(verb.name);
    Status added = registry.add_host_service(
        name, [ctx, &verb](const opbase_plugin& caller, std::string_view project,
                           std::string_view input) {
          return guarded("store",
                         [&] { return run_store_service(*ctx, caller, verb, project, input); });
        });
    if (!added) return added;
  }
  for (const HostService& service : kHostServices) {
    Status added = registry.add_host_service(
        service.name,
        [ctx, &service](const opbase_plugin&, std::string_view project, std::string_view input) {
          return guarded(service.area, [&] { return service.run(*ctx, project, input); });
        });
    if (!added) return added;
  }
  return Status::ok();
}

}  // namespace opbase::host
