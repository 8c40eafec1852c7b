// opbase: the daemon's entry point. Poco's ServerApplication gives foreground running by default,
// --daemon and --pidfile, and SIGTERM/SIGINT handling; this file adds --config and --set, and
// the sub-commands `admin create` (app/admin_command.hpp), `backup` (app/backup_command.hpp) and
// `restore` (app/restore_command.hpp), which take the same options for their configuration and
// their own.
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/ServerApplication.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "app/admin_command.hpp"
#include "app/backup_command.hpp"
#include "app/daemon.hpp"
#include "app/restore_command.hpp"
#include "log/log.hpp"
#include "opbase/version.hpp"

extern char** environ;

namespace opbase::host {
namespace {

#ifndef OPBASE_DEFAULT_CONFIG_FILE
#define OPBASE_DEFAULT_CONFIG_FILE "/etc/opbase/opbase.properties"
#endif

std::map<std::string, std::string> process_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    if (!entry.starts_with("OPBASE_")) continue;
    const auto eq = entry.find('=');
    if (eq != std::string_view::npos) env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

// Where `admin create` takes the password from when --password is absent: the environment is
// not shown by ps, the command line is.
constexpr const char* kAdminPasswordVariable = "OPBASE_ADMIN_PASSWORD";

constexpr const char* kServerUsage =
    "[--config FILE] [--set key=value ...] [--daemon --pidfile FILE]";
constexpr const char* kAdminUsage =
    "[--config FILE] [--set key=value ...] admin create --email E [--password P] [--project ID] "
    "[--display-name N]";
constexpr const char* kAdminHelp =
    "It makes an admin account through the auth plugin's service and exits, without "
    "serving HTTP; the configuration is read as the server reads it. The password comes from "
    "OPBASE_ADMIN_PASSWORD when --password is absent, which keeps it out of ps. Prints "
    "'admin created: <userkey> <email>' and exits 0; exits 1 with 'error: <CODE>: <message>', "
    "2 for bad usage.";
constexpr const char* kBackupUsage = "[--config FILE] [--set key=value ...] backup --to FILE";
constexpr const char* kRestoreUsage =
    "[--config FILE] [--set key=value ...] restore --from FILE [--force]";
constexpr const char* kBackupHelp =
    "backup writes one file with a consistent copy of every project's embedded store and the "
    "default project's keys, while the server runs. restore checks such a file and puts it into "
    "an empty storage.path while no server runs there; --force first renames the project files "
    "there to <name>.before-restore-<time>. Both print one summary line and exit 0; they exit 1 "
    "with 'error: <message>', 2 for bad usage.";

// Exit statuses of the sub-commands (the server's are Poco's: 64 usage, 78 configuration).
constexpr int kCommandExitFailed = 1;
constexpr int kCommandExitUsage = 2;

// The options of `admin create`, as given.
struct AdminOptions {
  std::optional<std::string> email;
  std::optional<std::string> password;
  std::optional<std::string> project;
  std::optional<std::string> display_name;

  bool any() const { return email || password || project || display_name; }
};

// The options of `backup` and `restore`, as given.
struct BackupOptions {
  std::optional<std::string> to;
  std::optional<std::string> from;
  bool force = false;

  bool any() const { return to || from || force; }
};

// --password when given, or else OPBASE_ADMIN_PASSWORD, which is then removed from the
// environment so that no plugin loaded into this process finds it there. Called before any
// thread but the main one exists, which getenv and unsetenv need.
std::string admin_password(const std::optional<std::string>& given) {
  const char* from_env = std::getenv(kAdminPasswordVariable);
  std::string password = given ? *given : from_env ? from_env : "";
  ::unsetenv(kAdminPasswordVariable);
  return password;
}

Poco::Util::Option admin_option(const char* name, const char* argument, const char* help) {
  return Poco::Util::Option(name, "", help).argument(argument).repeatable(false);
}

class OpbaseApplication final : public Poco::Util::ServerApplication {
 protected:
  void defineOptions(Poco::Util::OptionSet& options) override {
    ServerApplication::defineOptions(options);
    options.addOption(Poco::Util::Option("help", "h", "print this help and exit"));
    options.addOption(Poco::Util::Option("version", "v", "print the version and exit"));
    options.addOption(
        Poco::Util::Option("config", "c",
                           "properties file to read (default " OPBASE_DEFAULT_CONFIG_FILE
                           ", when present)")
            .argument("FILE")
            .repeatable(false));
    options.addOption(
        Poco::Util::Option("set", "s",
                           "set one configuration key; repeatable, wins over file and environment")
            .argument("KEY=VALUE")
            .repeatable(true));
    options.addOption(admin_option("email", "E", "admin create: the new admin's e-mail address"));
    options.addOption(admin_option(
        "password", "P",
        "admin create: the password; without it, OPBASE_ADMIN_PASSWORD (which ps does not show)"));
    options.addOption(
        admin_option("project", "ID", "admin create: the project (default 'default')"));
    options.addOption(admin_option(
        "display-name", "N", "admin create: the display name (default: the address's local part)"));
    options.addOption(admin_option("to", "FILE", "backup: the backup file to write"));
    options.addOption(admin_option("from", "FILE", "restore: the backup file to read"));
    options.addOption(
        Poco::Util::Option("force", "",
                           "restore: replace the project files in storage.path, keeping them "
                           "aside as <name>.before-restore-<time>")
            .repeatable(false));
  }

  void handleOption(const std::string& name, const std::string& value) override {
    ServerApplication::handleOption(name, value);
    if (name == "help") {
      Poco::Util::HelpFormatter help(options());
      help.setCommand(commandName());
      help.setUsage(kServerUsage);
      help.setFooter("Or: " + commandName() + " " + kAdminUsage + "\n" + kAdminHelp +
                     "\n\nOr: " + commandName() + " " + kBackupUsage + "\nOr: " + commandName() +
                     " " + kRestoreUsage + "\n" + kBackupHelp);
      help.setHeader("opbase " OPBASE_VERSION " - a self-hosted backend platform.");
      help.format(std::cout);
      stopOptionsProcessing();
      exit_early_ = true;
    } else if (name == "version") {
      std::cout << "opbase " OPBASE_VERSION " (plugin ABI " << OPBASE_ABI_MAJOR << "."
                << OPBASE_ABI_MINOR << ")\n";
      stopOptionsProcessing();
      exit_early_ = true;
    } else if (name == "config") {
      sources_.file = value;
    } else if (name == "set") {
      sources_.sets.push_back(value);
    } else if (name == "email") {
      admin_.email = value;
    } else if (name == "password") {
      admin_.password = value;
    } else if (name == "project") {
      admin_.project = value;
    } else if (name == "display-name") {
      admin_.display_name = value;
    } else if (name == "to") {
      backup_.to = value;
    } else if (name == "from") {
      backup_.from = value;
    } else if (name == "force") {
      backup_.force = true;
    }
  }

  int main(const std::vector<std::string>& args) override {
    if (exit_early_) return EXIT_OK;
    if (!args.empty() && args.front() == "admin") return admin(args);
    if (!args.empty() && args.front() == "backup") return backup(args);
    if (!args.empty() && args.front() == "restore") return restore(args);
    if (!args.empty()) {
      log::error("daemon", "unexpected argument '" + args.front() + "' (see --help)");
      return EXIT_USAGE;
    }
    if (admin_.any()) {
      log::error("daemon",
                 "--email, --password, --project and --display-name belong to "
                 "'admin create' (see --help)");
      return EXIT_USAGE;
    }
    if (backup_.any()) {
      log::error("daemon",
                 "--to, --from and --force belong to 'backup' and 'restore' (see --help)");
      return EXIT_USAGE;
    }
    auto config = load_config();
    if (!config) {
      log::error("daemon", config.status().message());
      return EXIT_CONFIG;
    }
    Daemon daemon(std::move(*config));
    if (Status started = daemon.start(); !started) {
      log::error("daemon", started.message());
      return EXIT_CONFIG;
    }
    // Reload is a restart, so SIGHUP (a closed terminal, say) must not end the daemon unannounced.
    std::signal(SIGHUP, SIG_IGN);
    waitForTerminationRequest();
    daemon.stop();
    return EXIT_OK;
  }

 private:
  // The configuration layers (docs/configuration.md), the same for the server and for admin
  // commands.
  Result<Config> load_config() {
    if (!sources_.file && std::filesystem::exists(OPBASE_DEFAULT_CONFIG_FILE)) {
      sources_.file = OPBASE_DEFAULT_CONFIG_FILE;
    }
    sources_.env = process_environment();
    return Config::load(sources_);
  }

  int admin(const std::vector<std::string>& args) {
    if (args.size() != 2 || args[1] != "create")
      return admin_usage("the admin command is 'create'");
    if (backup_.any()) {
      return admin_usage("--to, --from and --force belong to 'backup' and 'restore'");
    }
    if (!admin_.email || admin_.email->empty()) return admin_usage("--email is required");
    AdminCreateArgs create;
    create.email = *admin_.email;
    create.password = admin_password(admin_.password);
    if (create.password.empty()) {
      return admin_usage("a password is required: --password or OPBASE_ADMIN_PASSWORD");
    }
    if (admin_.project) create.project_id = *admin_.project;
    if (admin_.display_name) create.display_name = *admin_.display_name;
    auto config = load_config();
    if (!config) {
      std::fprintf(stderr, "error: %s\n", config.status().to_string().c_str());
      return kCommandExitFailed;
    }
    return run_admin_create(std::move(*config), create);
  }

  int backup(const std::vector<std::string>& args) {
    if (args.size() != 1) return usage("unexpected argument '" + args[1] + "'", kBackupUsage);
    if (admin_.any() || backup_.from || backup_.force) {
      return usage("backup takes only --to (and --config, --set)", kBackupUsage);
    }
    if (!backup_.to || backup_.to->empty()) return usage("--to FILE is required", kBackupUsage);
    auto config = load_config();
    if (!config) {
      std::fprintf(stderr, "error: %s\n", config.status().message().c_str());
      return kCommandExitFailed;
    }
    return run_backup(*config, BackupArgs{*backup_.to});
  }

  int restore(const std::vector<std::string>& args) {
    if (args.size() != 1) return usage("unexpected argument '" + args[1] + "'", kRestoreUsage);
    if (admin_.any() || backup_.to) {
      return usage("restore takes only --from and --force (and --config, --set)", kRestoreUsage);
    }
    if (!backup_.from || backup_.from->empty()) {
      return usage("--from FILE is required", kRestoreUsage);
    }
    auto config = load_config();
    if (!config) {
      std::fprintf(stderr, "error: %s\n", config.status().message().c_str());
      return kCommandExitFailed;
    }
    return run_restore(*config, RestoreArgs{*backup_.from, backup_.force});
  }

  int usage(const std::string& why, const char* usage_line) const {
    std::fprintf(stderr, "error: %s\nusage: %s %s\n", why.c_str(), commandName().c_str(),
                 usage_line);
    return kCommandExitUsage;
  }

  int admin_usage(const std::string& why) const {
    std::fprintf(stderr,
                 "error: %s\nusage: %s %s\n(the password may come from OPBASE_ADMIN_PASSWORD "
                 "instead of --password, which keeps it out of ps)\n",
                 why.c_str(), commandName().c_str(), kAdminUsage);
    return kCommandExitUsage;
  }

  ConfigSources sources_;
  AdminOptions admin_;
  BackupOptions backup_;
  bool exit_early_ = false;
};

}  // namespace
}  // namespace opbase::host

POCO_SERVER_MAIN(opbase::host::OpbaseApplication)
