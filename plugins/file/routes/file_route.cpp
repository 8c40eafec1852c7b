#include "routes/file_route.hpp"

#include "opbase/error_code.hpp"
#include "opbase/store_access.hpp"
#include "routes/route_answers.hpp"

namespace opbase::file {

void FileRoute::refuse_method(RouteCall& call, const Status& refusal) const {
  // RFC 9110 §15.5.6: a 405 names the methods the path takes. respond_error sends no header of
  // the route's, so the envelope is written here as the host writes it for a refusal that is no
  // internal error (no request id in it; X-Request-Id comes with every answer).
  nlohmann::json error = {{"code", refusal.code()}, {"message", refusal.message()}};
  if (refusal.details().is_object() && !refusal.details().empty()) {
    error["details"] = refusal.details();
  }
  const nlohmann::json envelope = {{"error", std::move(error)}};
  (void)call.respond(405, "application/json",
                     envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                     {{"Allow", folder_ != nullptr ? "GET, HEAD, PUT" : "GET, HEAD"}});
}

Status FileRoute::check_grant(const FileTarget& target) const {
  if (!target.claimed) return Status::ok();
  if (projects_.find(target.project) == projects_.end()) return bad_signature();
  auto secret = secrets_.of(target.project);
  if (!secret) return secret.status();
  if (!signature_holds(target, *secret)) return bad_signature();
  if (target.claimed->expires_s <= host_.now_ms() / 1000) {
    return url_refused("this URL has expired; ask for a new one", "expired");
  }
  return Status::ok();
}

void FileRoute::handle(RouteCall& call) const {
  auto target = read_file_target(call.method(), call.target());
  if (!target) {
    if (target.status().details().value("reason", "") == "method") {
      refuse_method(call, target.status());
    } else {
      (void)call.respond_error(target.status());
    }
    return;
  }
  if (Status granted = check_grant(*target); !granted) {
    (void)call.respond_error(granted);
    return;
  }
  if (!target->claimed && projects_.find(target->project) == projects_.end()) {
    (void)call.respond_error(no_such_file(), 404);
    return;
  }
  auto found = find_by_key(store_, target->project, "files", target->key);
  if (!found) {
    (void)call.respond_error(found.status());
    return;
  }
  if (!*found) {
    (void)call.respond_error(no_such_file(), 404);
    return;
  }
  if (call.method() == "PUT") {
    upload(call, *target, **found);
  } else {
    download(call, *target, **found);
  }
}

}  // namespace opbase::file
