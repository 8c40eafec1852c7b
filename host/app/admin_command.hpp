// `opbase admin create` (docs/api.md#invites-and-administrators): makes an admin account from the
// shell, for the first admin of a project, who cannot be invited by an admin who does not exist
// yet. The account is made by the auth plugin's service "auth.admin_create"; the command starts the
// host the way the server does (Daemon::load: the same configuration, stores, mailer and plugins)
// but never serves HTTP, and stops it again before it exits. Thread-safety: run from the main
// thread, once.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/daemon.hpp"
#include "config/config.hpp"

namespace opbase::host {

inline constexpr std::string_view kAdminCreateService = "auth.admin_create";

struct AdminCreateArgs {
  std::string email;
  std::string password;  // a secret: never logged, never printed, never in an error
  std::string project_id = "default";
  std::string display_name;  // empty: the e-mail address's local part
};

// Calls "auth.admin_create" with {"email", "password", "display_name"} through a daemon that
// load() loaded. Answers the service's answer, an object with a string "_userkey";
// VALIDATION_ERROR for a project that is not configured or text that is not UTF-8,
// UNKNOWN_OPERATION when no plugin provides the service, or the service's own error.
Result<nlohmann::json> create_admin(const Daemon& daemon, const AdminCreateArgs& args);

// The whole command: loads the host from `config`, creates the admin, stops the host. Prints
// "admin created: <_userkey> <email>" on standard output and returns 0, or prints
// "error: <CODE>: <message>" on standard error and returns 1.
int run_admin_create(Config config, const AdminCreateArgs& args);

}  // namespace opbase::host
