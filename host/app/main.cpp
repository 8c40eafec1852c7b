// opbase: the daemon's entry point. Poco's ServerApplication gives foreground running by default,
// --daemon and --pidfile, and SIGTERM/SIGINT handling; this file adds --config and --set.
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/ServerApplication.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/daemon.hpp"
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
  }

  void handleOption(const std::string& name, const std::string& value) override {
    ServerApplication::handleOption(name, value);
    if (name == "help") {
      Poco::Util::HelpFormatter help(options());
      help.setCommand(commandName());
      help.setUsage("[--config FILE] [--set key=value ...] [--daemon --pidfile FILE]");
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
    }
  }

  int main(const std::vector<std::string>& args) override {
    if (exit_early_) return EXIT_OK;
    if (!args.empty()) {
      log::error("daemon", "unexpected argument '" + args.front() + "' (see --help)");
      return EXIT_USAGE;
    }
    if (!sources_.file && std::filesystem::exists(OPBASE_DEFAULT_CONFIG_FILE)) {
      sources_.file = OPBASE_DEFAULT_CONFIG_FILE;
    }
    sources_.env = process_environment();
    auto config = Config::load(sources_);
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
  ConfigSources sources_;
  bool exit_early_ = false;
};

}  // namespace
}  // namespace opbase::host

POCO_SERVER_MAIN(opbase::host::OpbaseApplication)
