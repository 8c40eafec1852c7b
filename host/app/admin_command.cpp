// `opbase admin create` (see admin_command.hpp).
#include "app/admin_command.hpp"

#include <algorithm>
#include <cstdio>

#include "plugin_host/service_call.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

Status check_project(const Projects& projects, const std::string& id) {
  const auto& all = projects.all();
  if (std::any_of(all.begin(), all.end(), [&](const auto& p) { return p->id == id; })) {
    return Status::ok();
  }
  return Status::validation(
      "no project '" + id + "' is configured (projects." + id + ".endpoint_key and .api_key)",
      json{{"project", id}});
}

// The service's input, {"email", "password", "display_name"}, as JSON text.
Result<std::string> input_of(const AdminCreateArgs& args) {
  const std::string display_name =
      args.display_name.empty() ? args.email.substr(0, args.email.find('@')) : args.display_name;
  try {
    return json{{"email", args.email}, {"password", args.password}, {"display_name", display_name}}
        .dump();
  } catch (const json::type_error&) {
    // Not valid UTF-8. The exception's text quotes the bytes, which may be the password's.
    return Status::validation("the e-mail address, password and display name must be UTF-8 text");
  }
}

// The answer must name the new account; anything else is the plugin's fault, not the user's.
Status check_answer(const json& answer) {
  const auto key = answer.is_object() ? answer.find("_userkey") : answer.end();
  if (!answer.is_object() || key == answer.end() || !key->is_string() ||
      key->get_ref<const std::string&>().empty()) {
    return Status::internal(std::string(kAdminCreateService) + " answered no _userkey");
  }
  return Status::ok();
}

int print_failure(const Status& status) {
  std::fprintf(stderr, "error: %s: %s\n", status.code().c_str(), status.message().c_str());
  return 1;
}

// "admin created: <_userkey> <email>", with the address as the plugin stored it (it may have
// normalised it).
void print_created(const json& created, const std::string& given_email) {
  const auto stored = created.find("email");
  const std::string& email = stored != created.end() && stored->is_string()
                                 ? stored->get_ref<const std::string&>()
                                 : given_email;
  std::printf("admin created: %s %s\n",
              created.at("_userkey").get_ref<const std::string&>().c_str(), email.c_str());
  std::fflush(stdout);
}

}  // namespace

Result<json> create_admin(const Daemon& daemon, const AdminCreateArgs& args) {
  if (Status known = check_project(daemon.projects(), args.project_id); !known) return known;
  const ServiceEntry* service = daemon.registry().find_service(kAdminCreateService);
  if (service == nullptr) {
    return Status(code::kUnknownOperation, "no loaded plugin provides the service '" +
                                               std::string(kAdminCreateService) +
                                               "': enable the auth plugin (plugins.enabled)");
  }
  Result<std::string> input = input_of(args);
  if (!input) return input.status();
  Result<std::string> answer = call_plugin_service(*service, args.project_id, *input);
  if (!answer) return answer.status();
  json created = json::parse(*answer, nullptr, /*allow_exceptions=*/false);
  if (Status checked = check_answer(created); !checked) return checked;
  return created;
}

int run_admin_create(Config config, const AdminCreateArgs& args) {
  Daemon daemon(std::move(config));
  if (Status loaded = daemon.load(); !loaded) return print_failure(loaded);
  Result<json> created = create_admin(daemon, args);
  daemon.stop();  // events of the new account reach their subscribers before the exit
  if (!created) return print_failure(created.status());
  print_created(*created, args.email);
  return 0;
}

}  // namespace opbase::host
