// The host's mailer (host/mail/): the settings and their checks, the checks on a mail, the `log`
// transport, the `mail.send` service, and the `smtp` transport against a real SMTP server
// (tests/support/smtp_sink.py, on Debian's python3-aiosmtpd), which decodes every message it gets
// with Python's email package: the test sees what a mail reader would. STARTTLS runs against
// the same server with a self-signed certificate made here with openssl.
#include "mail/mailer.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "Poco/Net/ServerSocket.h"
#include "Poco/Net/SocketAddress.h"
#include "log/log.hpp"
#include "mail/mail_service.hpp"
#include "mail/smtp_mailer.hpp"
#include "smtp_sink.hpp"
#include "temp_dir.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;
using std::chrono::steady_clock;

using test::SinkOptions;
using test::SmtpSink;
using test::TempDir;
using test::test_certificate;

// Everything written to standard error (where the host log goes) while it lives.
class StderrCapture {
 public:
  StderrCapture() {
    path_ = dir_.path() + "/stderr";
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    saved_ = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  ~StderrCapture() { restore(); }
  std::string text() {
    restore();
    std::stringstream all;
    all << std::ifstream(path_).rdbuf();
    return all.str();
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    saved_ = -1;
  }
  TempDir dir_;
  std::string path_;
  int saved_ = -1;
};

// A port nobody listens on: bound, then released.
int closed_port() {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  const int port = socket.address().port();
  socket.close();
  return port;
}

SmtpSettings smtp_to(int port) {
  SmtpSettings s;
  s.port = static_cast<uint16_t>(port);
  s.timeout_s = 5;
  s.starttls = StartTls::kOff;
  return s;
}

const Mail kCode{"ann@example.com", "Your code", "Your code is 123456.\n"};

// Starts the sink or skips the test when it cannot (no python3-aiosmtpd, no openssl).
#define START_SINK(name, options)                                                             \
  if ((options).tls && !test_certificate().ok) GTEST_SKIP() << "openssl made no certificate"; \
  SmtpSink name(options);                                                                     \
  if (name.port() <= 0) GTEST_SKIP() << "the SMTP sink (python3-aiosmtpd) did not start"

// ---- settings ---------------------------------------------------------------------------------

Result<MailSettings> settings_with(const std::map<std::string, std::string>& values) {
  return mail_settings_from(Config::defaults_with(values));
}

// The error of settings `values`, checked to be a VALIDATION_ERROR naming `key`.
void expect_bad(const std::map<std::string, std::string>& values, const std::string& key) {
  auto settings = settings_with(values);
  ASSERT_FALSE(settings.is_ok()) << key;
  EXPECT_EQ(settings.status().code(), "VALIDATION_ERROR");
  EXPECT_NE(settings.status().message().find(key), std::string::npos)
      << settings.status().message();
  EXPECT_EQ(settings.status().details(), json({{"key", key}}));
}

TEST(MailSettings, DefaultsWhenNothingIsSet) {
  auto settings = settings_with({});
  ASSERT_TRUE(settings.is_ok()) << settings.status().to_string();
  EXPECT_EQ(settings->transport, MailTransport::kLog);
  EXPECT_EQ(settings->from, "opbase <no-reply@localhost>");
  EXPECT_EQ(settings->smtp.host, "127.0.0.1");
  EXPECT_EQ(settings->smtp.port, 25);
  EXPECT_EQ(settings->smtp.starttls, StartTls::kAuto);
  EXPECT_EQ(settings->smtp.username, "");
  EXPECT_EQ(settings->smtp.password, "");
  EXPECT_EQ(settings->smtp.timeout_s, 10);
  EXPECT_TRUE(settings->smtp.tls_verify);
}

TEST(MailSettings, ReadsEveryKey) {
  auto settings = settings_with({{"mail.transport", "smtp"},
                                 {"mail.from", "Shop <shop@example.com>"},
                                 {"mail.smtp.host", "mail.example.com"},
                                 {"mail.smtp.port", "587"},
                                 {"mail.smtp.starttls", "required"},
                                 {"mail.smtp.username", "shop"},
                                 {"mail.smtp.password", "pa ss"},
                                 {"mail.smtp.timeout_s", "30"},
                                 {"mail.smtp.tls_verify", "false"}});
  ASSERT_TRUE(settings.is_ok()) << settings.status().to_string();
  EXPECT_EQ(settings->transport, MailTransport::kSmtp);
  EXPECT_EQ(settings->from, "Shop <shop@example.com>");
  EXPECT_EQ(settings->smtp.host, "mail.example.com");
  EXPECT_EQ(settings->smtp.port, 587);
  EXPECT_EQ(settings->smtp.starttls, StartTls::kRequired);
  EXPECT_EQ(settings->smtp.username, "shop");
  EXPECT_EQ(settings->smtp.password, "pa ss");
  EXPECT_EQ(settings->smtp.timeout_s, 30);
  EXPECT_FALSE(settings->smtp.tls_verify);
  EXPECT_EQ(settings_with({{"mail.smtp.starttls", "off"}})->smtp.starttls, StartTls::kOff);
}

TEST(MailSettings, BadValuesNameTheirKey) {
  expect_bad({{"mail.transport", "fax"}}, "mail.transport");
  expect_bad({{"mail.smtp.port", "0"}}, "mail.smtp.port");
  expect_bad({{"mail.smtp.port", "70000"}}, "mail.smtp.port");
  expect_bad({{"mail.smtp.port", "25x"}}, "mail.smtp.port");
  expect_bad({{"mail.smtp.starttls", "maybe"}}, "mail.smtp.starttls");
  expect_bad({{"mail.smtp.timeout_s", "0"}}, "mail.smtp.timeout_s");
  expect_bad({{"mail.smtp.tls_verify", "perhaps"}}, "mail.smtp.tls_verify");
  expect_bad({{"mail.from", "nobody"}}, "mail.from");
  expect_bad({{"mail.from", "Name <a@b.c"}}, "mail.from");
  expect_bad({{"mail.from", "a@b.c, d@e.f"}}, "mail.from");
  expect_bad({{"mail.smtp.host", ""}}, "mail.smtp.host");
  expect_bad({{"mail.smtp.username", "shop"}}, "mail.smtp.password");
  expect_bad({{"mail.smtp.password", "secret"}}, "mail.smtp.username");
}

TEST(MailSettings, ThePasswordIsNeverQuoted) {
  auto settings = settings_with({{"mail.smtp.username", "u"}, {"mail.smtp.password", "s3\x01x"}});
  ASSERT_FALSE(settings.is_ok());
  EXPECT_EQ(settings.status().message().find("s3"), std::string::npos)
      << settings.status().message();
}

// ---- checks on a mail -------------------------------------------------------------------------

TEST(MailCheck, OneBareAddressAndAOneLineSubject) {
  EXPECT_TRUE(check_mail(kCode).is_ok());
  EXPECT_TRUE(check_mail({"a.b+tag@sub.example.com", "Grüße — ✓", "x"}).is_ok());
  for (const char* to :
       {"", "ann", "@example.com", "ann@", "ann@@example.com", "a@b@c", "Ann <ann@example.com>",
        "<ann@example.com>", "ann@example.com, b@c.d", "ann@example.com\r\nBcc: eve@evil.com",
        "ann@example.com\n", "ann @example.com", "ann@.example.com", "ann@example..com",
        "änn@example.com"}) {
    Status checked = check_mail({to, "s", "t"});
    EXPECT_EQ(checked.code(), "VALIDATION_ERROR") << to;
    EXPECT_EQ(checked.details(), json({{"field", "to"}})) << to;
  }
  Status subject = check_mail({"ann@example.com", "Code\r\nBcc: eve@evil.com", "t"});
  EXPECT_EQ(subject.code(), "VALIDATION_ERROR");
  EXPECT_EQ(subject.details(), json({{"field", "subject"}}));
}

TEST(MailCheck, Mailboxes) {
  auto named = parse_mailbox("opbase <no-reply@localhost>");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->name, "opbase");
  EXPECT_EQ(named->address, "no-reply@localhost");
  auto bare = parse_mailbox("a@b.c");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->name, "");
  EXPECT_EQ(bare->address, "a@b.c");
  EXPECT_FALSE(parse_mailbox("A <b> <a@b.c>"));
  EXPECT_FALSE(parse_mailbox("A\n <a@b.c>"));
}

// ---- the log transport ------------------------------------------------------------------------

TEST(LogMailer, WritesTheMailToTheLog) {
  log::set_level(log::Level::kInfo);
  StderrCapture capture;
  auto mailer = make_mailer(MailSettings{});  // the default transport is `log`
  ASSERT_TRUE(mailer->send(kCode).is_ok());
  EXPECT_EQ(mailer->send({"ann@example.com\r\nBcc: x@y.z", "s", "t"}).code(), "VALIDATION_ERROR");
  const std::string logged = capture.text();
  EXPECT_NE(logged.find("INFO  [mail] mail to ann@example.com: Your code"), std::string::npos)
      << logged;
  EXPECT_NE(logged.find("Your code is 123456."), std::string::npos) << logged;
  EXPECT_NE(logged.find("WARN  [mail] mail.transport=log"), std::string::npos) << logged;
  EXPECT_EQ(logged.find("x@y.z"), std::string::npos) << logged;
}

// ---- the mail.send service --------------------------------------------------------------------

class RecordingMailer : public Mailer {
 public:
  Status send(const Mail& mail) override {
    sent.push_back(mail);
    return answer;
  }
  std::vector<Mail> sent;
  Status answer;
};

TEST(MailService, SendsAndAnswersSent) {
  RecordingMailer mailer;
  auto answer = call_mail_service(mailer, "p1", {{"to", "a@b.c"}, {"subject", "S"}, {"text", "T"}});
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_EQ(*answer, json({{"sent", true}}));
  ASSERT_EQ(mailer.sent.size(), 1u);
  EXPECT_EQ(mailer.sent[0].to, "a@b.c");
  EXPECT_EQ(mailer.sent[0].subject, "S");
  EXPECT_EQ(mailer.sent[0].text, "T");
}

TEST(MailService, EveryFieldIsARequiredString) {
  RecordingMailer mailer;
  const json good = {{"to", "a@b.c"}, {"subject", "S"}, {"text", "T"}};
  for (const char* field : {"to", "subject", "text"}) {
    json missing = good;
    missing.erase(field);
    json wrong = good;
    wrong[field] = 42;
    for (const json& input : {missing, wrong}) {
      auto answer = call_mail_service(mailer, "p1", input);
      ASSERT_FALSE(answer.is_ok()) << input.dump();
      EXPECT_EQ(answer.status().code(), "VALIDATION_ERROR");
      EXPECT_EQ(answer.status().details(), json({{"field", field}}));
      EXPECT_NE(answer.status().message().find(field), std::string::npos);
    }
  }
  EXPECT_EQ(call_mail_service(mailer, "p1", json::array()).status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(call_mail_service(mailer, "p1", "text").status().code(), "VALIDATION_ERROR");
  EXPECT_TRUE(mailer.sent.empty());
}

TEST(MailService, ADecoyIsCheckedAndAnsweredAlikeButNotSent) {
  RecordingMailer mailer;
  auto answer = call_mail_service(
      mailer, "p1", {{"to", "a@b.c"}, {"subject", "S"}, {"text", "T"}, {"discard", true}});
  ASSERT_TRUE(answer.is_ok()) << answer.status().to_string();
  EXPECT_EQ(*answer, json({{"sent", true}}));
  EXPECT_TRUE(mailer.sent.empty());
  EXPECT_EQ(call_mail_service(mailer, "p1",
                              {{"to", "a@b.c"}, {"subject", "S"}, {"text", "T"}, {"discard", 1}})
                .status()
                .details(),
            json({{"field", "discard"}}));
}

TEST(MailService, PassesTheMailersFailureOn) {
  RecordingMailer mailer;
  mailer.answer = Status::internal("mail not sent");
  auto answer = call_mail_service(mailer, "p1", {{"to", "a@b.c"}, {"subject", "S"}, {"text", "T"}});
  EXPECT_EQ(answer.status().code(), "INTERNAL_ERROR");
}

// ---- the smtp transport -----------------------------------------------------------------------

TEST(SmtpMailer, DeliversWithHeadersAndUtf8Intact) {
  START_SINK(sink, SinkOptions{});
  SmtpSettings settings = smtp_to(sink.port());
  settings.starttls = StartTls::kAuto;  // not offered: plain
  SmtpMailer mailer("opbase <no-reply@localhost>", settings);
  // Long enough to take several encoded words, with multi-byte characters at their edges.
  const std::string subject = "Ihr Anmeldecode für opbase — 123456 — Grüße, ünïcödé ✓ 日本語の件名";
  const std::string text =
      "Grüße! Your code is 123456.\n"
      ".a line starting with a dot\n"
      "A long line, longer than a mail line may be: " +
      std::string(100, 'x') +
      " end\n"
      "trailing space \n日本語\r\nlast";
  Status sent = mailer.send({"ann@example.com", subject, text});
  ASSERT_TRUE(sent.is_ok()) << sent.to_string();

  auto messages = sink.messages();
  ASSERT_EQ(messages.size(), 1u);
  const json& m = messages[0];
  EXPECT_EQ(m["mail_from"], "no-reply@localhost");
  EXPECT_EQ(m["rcpt_tos"], json::array({"ann@example.com"}));
  EXPECT_EQ(m["tls"], false);
  EXPECT_EQ(m["subject"], subject);
  std::string expected_text = text;
  expected_text.replace(expected_text.find("\r\n"), 2, "\n");
  EXPECT_EQ(m["text"], expected_text + "\n");  // the body's last line ends too
  const json& h = m["headers"];
  EXPECT_EQ(h["From"], "opbase <no-reply@localhost>");
  EXPECT_EQ(h["To"], "ann@example.com");
  EXPECT_EQ(h["MIME-Version"], "1.0");
  EXPECT_EQ(h["Content-Type"], "text/plain; charset=\"UTF-8\"");  // as Python prints it
  EXPECT_EQ(h["Content-Transfer-Encoding"], "quoted-printable");
  EXPECT_TRUE(h.contains("Date")) << h.dump();
  const std::string id = h.value("Message-ID", "");
  EXPECT_TRUE(id.starts_with("<") && id.ends_with("@localhost>")) << id;
  // The headers as sent are 7-bit, and no line is longer than 78 characters.
  const std::string raw = m["raw_headers"];
  EXPECT_NE(raw.find("\r\nContent-Type: text/plain; charset=UTF-8\r\n"), std::string::npos) << raw;
  EXPECT_TRUE(std::all_of(raw.begin(), raw.end(), [](char c) { return c > 0 && c < 0x7f; }));
  std::istringstream lines(raw);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 79u) << line;
}

TEST(SmtpMailer, EachMailOnItsOwnConnection) {
  START_SINK(sink, SinkOptions{});
  SmtpMailer mailer("a@b.c", smtp_to(sink.port()));
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&mailer, i] {
      Status sent = mailer.send({"u" + std::to_string(i) + "@example.com", "S", "T"});
      EXPECT_TRUE(sent.is_ok()) << sent.to_string();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(sink.messages().size(), 3u);
}

TEST(SmtpMailer, LogsInWithPlainOrLogin) {
  for (const char* mechanism : {"PLAIN", "LOGIN"}) {
    START_SINK(sink,
               (SinkOptions{.user = "alice", .password = "s3cret-Pass", .mechanisms = mechanism}));
    SmtpSettings settings = smtp_to(sink.port());
    settings.username = "alice";
    settings.password = "s3cret-Pass";
    Status sent = SmtpMailer("a@b.c", settings).send(kCode);
    ASSERT_TRUE(sent.is_ok()) << mechanism << ": " << sent.to_string();
    auto messages = sink.messages();
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0]["login"], "alice") << mechanism;
  }
}

TEST(SmtpMailer, WrongPasswordFailsWithoutQuotingIt) {
  START_SINK(sink, (SinkOptions{.user = "alice", .password = "right-one"}));
  SmtpSettings settings = smtp_to(sink.port());
  settings.username = "alice";
  settings.password = "Wrong-Pa55word";
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("535"), std::string::npos) << sent.message();
  EXPECT_EQ(sent.message().find("Wrong-Pa55word"), std::string::npos) << sent.message();
  EXPECT_TRUE(sink.messages().empty());
}

TEST(SmtpMailer, ServerRequiringLoginRefusesAMailWithout) {
  START_SINK(sink, (SinkOptions{.user = "alice", .password = "pw"}));
  Status sent = SmtpMailer("a@b.c", smtp_to(sink.port())).send(kCode);
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("530"), std::string::npos) << sent.message();
}

TEST(SmtpMailer, StartTlsRequiredButNotOffered) {
  START_SINK(sink, SinkOptions{});
  SmtpSettings settings = smtp_to(sink.port());
  settings.starttls = StartTls::kRequired;
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("does not offer STARTTLS"), std::string::npos) << sent.message();
  EXPECT_TRUE(sink.messages().empty());
}

TEST(SmtpMailer, StartTlsWhenOffered) {
  START_SINK(sink, SinkOptions{.tls = true});
  for (StartTls mode : {StartTls::kAuto, StartTls::kRequired}) {
    SmtpSettings settings = smtp_to(sink.port());
    settings.starttls = mode;
    settings.tls_verify = false;  // the certificate is self-signed
    Status sent = SmtpMailer("a@b.c", settings).send(kCode);
    ASSERT_TRUE(sent.is_ok()) << sent.to_string();
  }
  auto messages = sink.messages();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0]["tls"], true);
  EXPECT_EQ(messages[1]["tls"], true);
}

TEST(SmtpMailer, StartTlsOffStaysPlain) {
  START_SINK(sink, SinkOptions{.tls = true});
  Status sent = SmtpMailer("a@b.c", smtp_to(sink.port())).send(kCode);  // starttls off
  ASSERT_TRUE(sent.is_ok()) << sent.to_string();
  auto messages = sink.messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["tls"], false);
}

TEST(SmtpMailer, VerifiedTlsRefusesAnUnknownCertificate) {
  START_SINK(sink, SinkOptions{.tls = true});
  SmtpSettings settings = smtp_to(sink.port());
  settings.starttls = StartTls::kAuto;
  settings.tls_verify = true;  // the system's CAs do not know the self-signed certificate
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("certificate"), std::string::npos) << sent.message();
  EXPECT_TRUE(sink.messages().empty());
}

TEST(SmtpMailer, LogsInAfterStartTls) {
  START_SINK(
      sink,
      (SinkOptions{
          .user = "alice", .password = "pw-over-tls", .tls = true, .auth_requires_tls = true}));
  SmtpSettings settings = smtp_to(sink.port());
  settings.starttls = StartTls::kRequired;
  settings.tls_verify = false;
  settings.username = "alice";
  settings.password = "pw-over-tls";
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  ASSERT_TRUE(sent.is_ok()) << sent.to_string();
  auto messages = sink.messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["tls"], true);
  EXPECT_EQ(messages[0]["login"], "alice");
}

TEST(SmtpMailer, NoAuthOfferedBeforeTls) {
  START_SINK(sink, (SinkOptions{
                       .user = "alice", .password = "pw", .tls = true, .auth_requires_tls = true}));
  SmtpSettings settings = smtp_to(sink.port());  // starttls off: the server offers no AUTH
  settings.username = "alice";
  settings.password = "pw";
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("offers no AUTH"), std::string::npos) << sent.message();
}

TEST(SmtpMailer, ConnectionRefusedFailsAtOnce) {
  SmtpSettings settings = smtp_to(closed_port());
  settings.timeout_s = 3;
  const auto start = steady_clock::now();
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("127.0.0.1:" + std::to_string(settings.port)), std::string::npos)
      << sent.message();
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(settings.timeout_s));
}

TEST(SmtpMailer, SilentServerTimesOut) {
  START_SINK(sink, SinkOptions{.silent = true});
  SmtpSettings settings = smtp_to(sink.port());
  settings.timeout_s = 1;
  const auto start = steady_clock::now();
  Status sent = SmtpMailer("a@b.c", settings).send(kCode);
  const auto took = steady_clock::now() - start;
  EXPECT_EQ(sent.code(), "INTERNAL_ERROR");
  EXPECT_NE(sent.message().find("Timeout"), std::string::npos) << sent.message();
  EXPECT_GE(took, std::chrono::milliseconds(900));
  EXPECT_LT(took, std::chrono::seconds(4));
}

TEST(SmtpMailer, HeaderInjectionIsRefusedBeforeConnecting) {
  START_SINK(sink, SinkOptions{});
  SmtpMailer mailer("a@b.c", smtp_to(sink.port()));
  for (const Mail& mail : {Mail{"ann@example.com\r\nBcc: eve@evil.com", "S", "T"},
                           Mail{"ann@example.com>\r\nRCPT TO:<eve@evil.com", "S", "T"},
                           Mail{"ann@example.com, eve@evil.com", "S", "T"},
                           Mail{"ann@example.com", "S\r\nBcc: eve@evil.com", "T"}}) {
    EXPECT_EQ(mailer.send(mail).code(), "VALIDATION_ERROR") << mail.to << " / " << mail.subject;
  }
  EXPECT_TRUE(sink.messages().empty());
}

TEST(SmtpMailer, MadeFromSettings) {
  START_SINK(sink, SinkOptions{});
  auto settings = settings_with({{"mail.transport", "smtp"},
                                 {"mail.from", "Shop Ünï <shop@example.com>"},
                                 {"mail.smtp.port", std::to_string(sink.port())}});
  ASSERT_TRUE(settings.is_ok()) << settings.status().to_string();
  Status sent = make_mailer(*settings)->send(kCode);
  ASSERT_TRUE(sent.is_ok()) << sent.to_string();
  auto messages = sink.messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["headers"]["From"], "Shop Ünï <shop@example.com>");
  EXPECT_EQ(messages[0]["mail_from"], "shop@example.com");
}

}  // namespace
}  // namespace opbase::host
