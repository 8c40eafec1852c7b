// The host's own services, typed: what a plugin asks of the daemon itself rather than of
// another plugin (docs/plugin-guide.md#host-services). Each is one Host::call_service under its
// name, its answer read here once, so no plugin parses it by hand; the store's services have
// theirs in document_store.hpp.
// Thread-safety: as Host, any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase {

// projects.list: the id of every project whose store is open, for background work that must
// reach all of them, not only those requests name.
Result<std::vector<std::string>> list_projects(const Host& host);

// server.url: "http://<host>:<port>", where the daemon listens (the port it got, with
// server.port = 0); INTERNAL_ERROR until it listens, so ask after start, not in init.
Result<std::string> server_url(const Host& host);

// mail.send: one mail, kept in `project`'s store until the host's mail queue sends it. A
// `discard` mail is handled alike but never sent: a decoy, so that whether a mail went out
// cannot be told by timing.
struct Mail {
  std::string to;
  std::string subject;
  std::string text;
  bool discard = false;
};
Status send_mail(const Host& host, std::string_view project, const Mail& mail);

// audit.list: a page of `project`'s audit log, newest first (limit 1 – 500, offset ≥ 0).
struct AuditPage {
  nlohmann::json entries = nlohmann::json::array();
  int64_t total = 0;
};
Result<AuditPage> list_audit(const Host& host, std::string_view project, int64_t limit,
                             int64_t offset);

}  // namespace opbase
