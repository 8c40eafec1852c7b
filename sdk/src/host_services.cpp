#include "opbase/host_services.hpp"

namespace opbase {

using nlohmann::json;

Result<std::vector<std::string>> list_projects(const Host& host) {
  auto answer = host.call_service("projects.list", "", json::object());
  if (!answer) return answer.status();
  std::vector<std::string> ids;
  for (const json& id : answer->value("projects", json::array())) {
    if (id.is_string()) ids.push_back(id.get<std::string>());
  }
  return ids;
}

Result<std::string> server_url(const Host& host) {
  auto answer = host.call_service("server.url", "", json::object());
  if (!answer) return answer.status();
  return answer->value("url", "");
}

Status send_mail(const Host& host, std::string_view project, const Mail& mail) {
  json input = {{"to", mail.to}, {"subject", mail.subject}, {"text", mail.text}};
  if (mail.discard) input["discard"] = true;
  auto sent = host.call_service("mail.send", project, input);
  return sent ? Status::ok() : sent.status();
}

Result<AuditPage> list_audit(const Host& host, std::string_view project, int64_t limit,
                             int64_t offset) {
  auto page = host.call_service("audit.list", project, {{"limit", limit}, {"offset", offset}});
  if (!page) return page.status();
  return AuditPage{page->value("entries", json::array()), page->value("total", int64_t{0})};
}

}  // namespace opbase
