// AuditTrail: what administrators changed, kept in each project's store (the host's namespace
// "host.audit", collection "audit"), newest first, for the management console
// (docs/api.md#the-audit-log). The gateway writes one entry for every admin-level op that
// answered success and is a change: any admin op but the reads, whose verb is list, get,
// count, find, explain or usage. An entry: `_key`, `at` (ISO time), `op`, `actor` ({"user":
// <_userkey>} or {"admin_key": true}), `request_id`, `client_address`, and `params`, the
// request's fields but `op`, with secrets (the strings of a field named by a secret word, and
// the userinfo, query values and fragment of any URL: audit/param_redaction.hpp) replaced by
// "[redacted]" and the whole cut to 4 KiB.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/status.hpp"
#include "store/stores.hpp"

namespace opbase::host {

struct AuditEntry {
  std::string project;
  std::string op;
  std::string user;  // the admin's _userkey; empty for the server admin key
  std::string request_id;
  std::string client_address;
  std::string_view body;  // the request body as sent
};

class AuditTrail {
 public:
  AuditTrail(Stores& stores, std::function<int64_t()> now_ms)
      : stores_(stores), now_ms_(std::move(now_ms)) {}

  // Whether a call of admin op `op` is written: every one but the reads.
  static bool records(std::string_view op);

  Status record(const AuditEntry& entry) const;

  // {"entries": [...], "total": n}, newest first.
  Result<nlohmann::json> list(std::string_view project, int64_t limit, int64_t offset) const;

 private:
  Stores& stores_;
  std::function<int64_t()> now_ms_;
};

// The request's fields as an entry keeps them (see above).
nlohmann::json audited_params(std::string_view body);

}  // namespace opbase::host
