// mail_test: the host service "mail.send" in the real daemon. A plugin (probe.call) sends a mail
// through it; with the default `log` transport the mail is one line of the server log. A bad
// mail.* setting refuses the start with a message naming the key, from the file, the
// environment or the command line alike; `smtp` is chosen by configuration and its failure
// reaches the plugin as an error.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

DaemonOptions with_probe() {
  DaemonOptions options;
  options.plugins = {"probe"};
  return options;
}

// probe.call of mail.send with `mail` as the input.
HttpResponse send_mail(const DaemonProcess& daemon, const json& mail) {
  return daemon.call({{"op", "probe.call"}, {"service", "mail.send"}, {"input", mail}});
}

const json kMail = {{"to", "ann@example.com"}, {"subject", "Your code"}, {"text", "123456\n"}};

TEST(MailService, APluginsMailIsOneLineOfTheServerLog) {
  auto daemon = DaemonProcess::start(with_probe());
  const HttpResponse r = send_mail(*daemon, kMail);
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"], json({{"sent", true}}));
  const std::string log = daemon->log();
  EXPECT_TRUE(contains(log, "[mail] mail to ann@example.com: Your code | 123456 \n")) << log;
  // The start warns that mails, and the codes in them, go to the log.
  EXPECT_TRUE(contains(log, "mail.transport=log")) << log;
  EXPECT_FALSE(contains(daemon->output(), "123456")) << "a mail on standard output";
}

TEST(MailService, WhatTheMailServiceRefusesReachesThePlugin) {
  auto daemon = DaemonProcess::start(with_probe());
  const HttpResponse r = send_mail(*daemon, {{"to", "ann@example.com"}, {"text", "t"}});
  ASSERT_EQ(r.status, 400) << r.describe();
  EXPECT_EQ(r.json()["error"]["code"], "VALIDATION_ERROR");
  EXPECT_EQ(r.json()["error"]["details"], json({{"field", "subject"}}));
}

TEST(MailService, SmtpTransportIsChosenByConfigurationAndItsFailureReachesThePlugin) {
  DaemonOptions options = with_probe();
  options.config["mail.transport"] = "smtp";
  options.config["mail.smtp.port"] = "1";  // nothing listens there: refused at once
  options.config["mail.smtp.timeout_s"] = "2";
  auto daemon = DaemonProcess::start(options);
  const HttpResponse r = send_mail(*daemon, kMail);
  ASSERT_EQ(r.status, 500) << r.describe();
  EXPECT_EQ(r.json()["error"]["code"], "INTERNAL_ERROR");
  EXPECT_TRUE(contains(r.json()["error"]["message"].get<std::string>(), "127.0.0.1:1"))
      << r.describe();
}

// ---- refused start-ups ----

// The exit status and log of a daemon that must refuse to start.
std::pair<std::optional<int>, std::string> refused_start(const DaemonOptions& options) {
  auto daemon = DaemonProcess::spawn(options);
  const std::optional<int> status = daemon->wait_exit(20s);
  EXPECT_FALSE(contains(daemon->output(), "listening on")) << daemon->output();
  return {status, daemon->log()};
}

TEST(MailService, ABadMailSettingRefusesTheStartNamingTheKey) {
  DaemonOptions on_command_line = with_probe();
  on_command_line.config["mail.transport"] = "fax";
  DaemonOptions in_environment = with_probe();
  in_environment.env["OPBASE_MAIL_SMTP_PORT"] = "70000";
  DaemonOptions in_file = with_probe();
  in_file.properties = "mail.from = nobody\n";
  for (const auto& [options, words] :
       {std::pair{on_command_line, "configuration key mail.transport (from command line)"},
        std::pair{in_environment, "configuration key mail.smtp.port (from environment)"},
        std::pair{in_file, "configuration key mail.from (from "}}) {
    const auto [status, log] = refused_start(options);
    ASSERT_TRUE(status.has_value()) << "the daemon kept running; log:\n" << log;
    EXPECT_EQ(*status, 78) << log;
    EXPECT_TRUE(contains(log, words)) << "expected '" << words << "' in the log:\n" << log;
  }
}

TEST(MailService, TheSmtpPasswordIsNeverInTheLog) {
  DaemonOptions options = with_probe();
  options.env["OPBASE_MAIL_SMTP_PASSWORD"] = "Sekr1t-smtp-pass\x01";  // refused: not one line
  options.config["mail.smtp.username"] = "shop";
  const auto [status, log] = refused_start(options);
  ASSERT_TRUE(status.has_value()) << log;
  EXPECT_EQ(*status, 78) << log;
  EXPECT_TRUE(contains(log, "mail.smtp.password")) << log;
  EXPECT_FALSE(contains(log, "Sekr1t")) << log;
}

}  // namespace
}  // namespace opbase::test
