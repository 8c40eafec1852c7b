// mail_test: the host service "mail.send" in the real daemon. A plugin (probe.call) hands a mail
// to it and gets {"queued": true} at once; the queue sends it in the background, with the
// default `log` transport as one line of the server log. A failed send is logged and tried
// again, never reported to the plugin; queued mail survives kill -9 and SIGTERM and reaches a
// real SMTP server after the restart. A bad mail.* setting refuses the start with a message
// naming the key, from the file, the environment or the command line alike.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <string>
#include <thread>

#include "daemon_process.hpp"
#include "smtp_sink.hpp"
#include "temp_dir.hpp"

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

// Whether `done` holds within 20 s.
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

// A daemon whose mail goes to SMTP on `port` (1: nothing listens, every send fails at once),
// keeping its store in `storage`, so a second daemon finds what the first queued.
DaemonOptions smtp_on(int port, const std::string& storage) {
  DaemonOptions options = with_probe();
  options.config["mail.transport"] = "smtp";
  options.config["mail.smtp.port"] = std::to_string(port);
  options.config["mail.smtp.starttls"] = "off";
  options.config["mail.smtp.timeout_s"] = "2";
  options.config["mail.queue.retry_s"] = "1";
  options.config["storage.path"] = storage;
  return options;
}

bool mailed(const SmtpSink& sink, std::string_view code) {
  for (const json& mail : sink.messages()) {
    if (contains(mail.value("text", ""), code)) return true;
  }
  return false;
}

TEST(MailService, APluginsMailIsQueuedAndBecomesOneLineOfTheServerLog) {
  auto daemon = DaemonProcess::start(with_probe());
  const HttpResponse r = send_mail(*daemon, kMail);
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"], json({{"queued", true}}));
  EXPECT_TRUE(eventually([&] {
    return contains(daemon->log(), "[mail] mail to ann@example.com: Your code | 123456 \n");
  })) << daemon->log();
  // The start warns that mails, and the codes in them, go to the log.
  EXPECT_TRUE(contains(daemon->log(), "mail.transport=log")) << daemon->log();
  EXPECT_FALSE(contains(daemon->output(), "123456")) << "a mail on standard output";
  EXPECT_EQ(daemon->metric("opbase_mail_queued_total"), 1);
  EXPECT_TRUE(eventually([&] { return daemon->metric("opbase_mail_sent_total") == 1; }));
}

TEST(MailService, WhatTheMailServiceRefusesReachesThePlugin) {
  auto daemon = DaemonProcess::start(with_probe());
  const HttpResponse r = send_mail(*daemon, {{"to", "ann@example.com"}, {"text", "t"}});
  ASSERT_EQ(r.status, 400) << r.describe();
  EXPECT_EQ(r.json()["error"]["code"], "VALIDATION_ERROR");
  EXPECT_EQ(r.json()["error"]["details"], json({{"field", "subject"}}));
}

// The plugin's answer does not wait for the mail server: a failure is logged (without the text)
// and the mail tried again.
TEST(MailService, ASmtpFailureIsLoggedAndRetriedNotAnsweredToThePlugin) {
  TempDir storage("opbase-mailq");
  auto daemon = DaemonProcess::start(smtp_on(1, storage.path()));
  const HttpResponse r = send_mail(*daemon, kMail);
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"], json({{"queued", true}}));
  ASSERT_TRUE(eventually([&] { return contains(daemon->log(), "(attempt 2 of 8)"); }))
      << daemon->log();
  EXPECT_TRUE(contains(daemon->log(), "127.0.0.1:1")) << daemon->log();
  EXPECT_FALSE(contains(daemon->log(), "123456")) << "the mail's text in the log";
  EXPECT_GE(daemon->metric("opbase_mail_retried_total").value_or(0), 2);
}

// kill -9 while a mail waits for its next try: the next daemon on the store sends it.
TEST(MailService, QueuedMailSurvivesAKillAndIsSentAfterTheRestart) {
  SmtpSink sink({});
  if (sink.port() <= 0) GTEST_SKIP() << "the SMTP sink (python3-aiosmtpd) did not start";
  TempDir storage("opbase-mailq");
  {
    auto first = DaemonProcess::start(smtp_on(1, storage.path()));
    ASSERT_EQ(
        send_mail(*first, {{"to", "ann@example.com"}, {"subject", "S"}, {"text", "731904"}}).status,
        200);
    ASSERT_TRUE(eventually([&] { return contains(first->log(), "not sent (attempt 1"); }))
        << first->log();
    first->send_signal(SIGKILL);
    ASSERT_TRUE(first->wait_exit(10s).has_value());
  }
  EXPECT_FALSE(mailed(sink, "731904"));
  auto second = DaemonProcess::start(smtp_on(sink.port(), storage.path()));
  EXPECT_TRUE(eventually([&] { return mailed(sink, "731904"); })) << second->log();
  EXPECT_TRUE(eventually([&] { return second->metric("opbase_mail_sent_total") == 1; }));
}

// SIGTERM stops the daemon cleanly with mail still queued; the next start sends it.
TEST(MailService, SigtermLeavesQueuedMailForTheNextStart) {
  SmtpSink sink({});
  if (sink.port() <= 0) GTEST_SKIP() << "the SMTP sink (python3-aiosmtpd) did not start";
  TempDir storage("opbase-mailq");
  {
    auto first = DaemonProcess::start(smtp_on(1, storage.path()));
    ASSERT_EQ(
        send_mail(*first, {{"to", "ann@example.com"}, {"subject", "S"}, {"text", "552211"}}).status,
        200);
    ASSERT_TRUE(eventually([&] { return contains(first->log(), "not sent (attempt 1"); }));
    first->send_signal(SIGTERM);
    const std::optional<int> status = first->wait_exit(20s);
    ASSERT_TRUE(status.has_value()) << first->log();
    EXPECT_EQ(*status, 0) << first->log();
  }
  EXPECT_FALSE(mailed(sink, "552211"));
  auto second = DaemonProcess::start(smtp_on(sink.port(), storage.path()));
  EXPECT_TRUE(eventually([&] { return mailed(sink, "552211"); })) << second->log();
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
