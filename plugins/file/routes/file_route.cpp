#include "routes/file_route.hpp"

#include "opbase/error_code.hpp"
#include "opbase/store_access.hpp"
#include "routes/route_answers.hpp"

namespace opbase::file {

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
    (void)call.respond_error(target.status(),
                             target.status().details().value("reason", "") == "method" ? 405 : 0);
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
