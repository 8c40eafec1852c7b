// Dispatcher: the gateway's pipeline for one API call, independent of HTTP so it can be tested
// directly: project by endpoint key (or by API key on /api), API key, JSON (one scan that builds
// nothing, refusing a body of more than `max_json_values` values before any handler parses it),
// op name, the op's access need (bearer token through the "auth.verify_token" service), the
// handler call, and the envelope. Every failure becomes the spec's error envelope with its HTTP
// status. The body's size is the HTTP front's to limit: it refuses a large body before reading it.
//
// Thread-safety: handle() is called concurrently from the HTTP worker threads; the dispatcher
// only reads the registry and projects, which do not change while serving.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/audit_trail.hpp"
#include "metrics/metrics.hpp"
#include "plugin_host/registry.hpp"
#include "projects/projects.hpp"

namespace opbase::host {

struct ApiCall {
  std::optional<std::string_view> endpoint_key;  // nullopt for POST /api
  std::string_view api_key;                      // X-API-KEY, empty when absent
  std::string_view authorization;                // Authorization header, empty when absent
  std::string_view admin_key;                    // X-Admin-Key header, empty when absent
  std::string_view body;
  std::string_view request_id;
  std::string_view client_address;
};

// A call that passed every check and waits to run on its op's lane (registry.hpp OpEntry.lane):
// what the handler will be given, kept apart from the worker that checked it.
struct LaneCall {
  const Project* project = nullptr;
  const OpEntry* op = nullptr;
  std::string called_as;
  std::string user_id;
  std::string claims;
  std::string token;
};

struct ApiAnswer {
  int http_status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beyond Content-Type / X-Request-Id
  std::string metric_op = "none";  // label for the metrics: a registered op, "unknown" or "none"
  std::string metric_code = "OK";
  std::string project;  // the caller's project id, once known (for the request log)
  // Set when the op runs on its plugin's lane: nothing else is, and the caller hands this to
  // run_on_lane() on one of the lane's threads.
  std::optional<LaneCall> lane_call;
};

// The service a plugin provides to check bearer tokens (the auth plugin will).
inline constexpr std::string_view kTokenVerifierService = "auth.verify_token";
// The op a body without "op" but with "query" is sent to: the statement form
// (docs/api.md#the-statement-form).
inline constexpr std::string_view kStatementOp = "collection.statement";

class Dispatcher {
 public:
  // `max_json_values`: the most values (each scalar, object and array counts one) a body may hold.
  // `admin_key_digest`: SHA-256 of `server.admin_key`, or empty when none is configured.
  Dispatcher(const Projects& projects, const Registry& registry, size_t max_json_values,
             std::string admin_key_digest = "")
      : projects_(projects),
        registry_(registry),
        max_json_values_(max_json_values),
        admin_key_digest_(std::move(admin_key_digest)) {}

  // Checks the call and runs its handler; or, for an op that runs on a lane, checks the call
  // and answers `lane_call` for run_on_lane().
  ApiAnswer handle(const ApiCall& call) const;
  // The handler of a call handle() sent to a lane, on a thread of that lane. `call` is the same
  // call (its body and request id are read again, not its headers).
  ApiAnswer run_on_lane(const ApiCall& call, const LaneCall& checked) const;

  // The first step of handle(), on its own: the project of the endpoint key (or of the API key
  // when there is no endpoint key) and its API key, compared in constant time. The HTTP front
  // calls it when a request's headers have arrived, so a caller without the key is refused
  // before its body is read. AUTHENTICATION_FAILED when the key does not fit.
  Result<const Project*> admit(std::optional<std::string_view> endpoint_key,
                               std::string_view api_key) const;

  // Where admin changes are written (audit/audit_trail.hpp); none until set. Set before the
  // first call.
  void set_audit(const AuditTrail* audit) { audit_ = audit; }

  // For the gateway's other routes on a project (the JWKS route).
  const Projects& projects() const { return projects_; }
  const Registry& registry() const { return registry_; }

 private:
  struct Caller {
    std::string user_id;
    std::string claims;  // JSON object text, empty when anonymous
    std::string token;
  };
  Result<Caller> authorize(const OpEntry& op, const Project& project, const ApiCall& call) const;
  // An admin op called with X-Admin-Key: the server's administrator, no user.
  Result<Caller> authorize_admin_key(std::string_view presented) const;

  ApiAnswer run(const ApiCall& call, const Project& project, const OpEntry& op,
                std::string_view called_as, const Caller& caller) const;

  const AuditTrail* audit_ = nullptr;
  const Projects& projects_;
  const Registry& registry_;
  const size_t max_json_values_;
  const std::string admin_key_digest_;
};

}  // namespace opbase::host
