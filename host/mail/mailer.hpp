// Mailer: how the host sends e-mail (the auth plugin's one-time codes). One plain-text mail at a
// time through a transport chosen by configuration: `log` writes each mail to the server log
// (development), `smtp` hands it to an SMTP server. Both check a mail the same way first, so a
// bad address fails in development just as it would in production.
//
//   auto settings = mail_settings_from(config);   // VALIDATION_ERROR naming a bad key
//   auto mailer = make_mailer(*settings);
//   Status sent = mailer->send({.to = "ann@example.com", .subject = "Code", .text = "123456"});
//
// Thread-safety: send() may be called from any thread at once.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "config/config.hpp"
#include "opbase/status.hpp"

namespace opbase::host {

// One mail. `to` is one bare address ("ann@example.com"); `subject` one line; `text` the body,
// UTF-8, lines ending in "\n" or "\r\n".
struct Mail {
  std::string to;
  std::string subject;
  std::string text;
  // A decoy: handled like any mail up to the moment of sending, then dropped unsent. A plugin
  // whose answer must not say whether it mailed someone (the auth plugin's send_otp for an
  // unknown address) makes the same writes either way.
  bool discard = false;
};

class Mailer {
 public:
  virtual ~Mailer() = default;
  // VALIDATION_ERROR (details {"field": ...}) for a bad `to` or subject; INTERNAL_ERROR when the
  // transport failed, with the server's reply but never the credentials.
  virtual Status send(const Mail& mail) = 0;
  // How the mail.send service hands over a plugin's mail for `project`: the answer for the
  // plugin. A transport sends at once ({"sent": true}); the queue (mail_queue.hpp) keeps the
  // mail in the project's store and sends it in the background ({"queued": true}).
  virtual Result<nlohmann::json> submit(std::string_view project, const Mail& mail);
};

enum class MailTransport { kLog, kSmtp };
// When to switch an SMTP connection to TLS: when the server offers it, always (fail when it
// does not), never.
enum class StartTls { kAuto, kRequired, kOff };

// mail.smtp.*; the member initialisers are the defaults.
struct SmtpSettings {
  std::string host = "127.0.0.1";
  uint16_t port = 25;
  StartTls starttls = StartTls::kAuto;
  std::string username;    // empty: no login
  std::string password;    // a secret: never logged, never in an error
  int timeout_s = 10;      // for the connect and for each exchange with the server
  bool tls_verify = true;  // check the server's certificate against the system's CA bundle
};

// mail.queue.*; the member initialisers are the defaults.
struct MailQueueSettings {
  int workers = 2;       // threads sending queued mail
  int max_attempts = 8;  // sends tried before a mail is given up
  int64_t retry_s = 5;   // the wait after the first failure; doubles after each, up to an hour
};

// mail.*; the member initialisers are the defaults.
struct MailSettings {
  MailTransport transport = MailTransport::kLog;
  std::string from = "opbase <no-reply@localhost>";  // "address" or "Name <address>"
  SmtpSettings smtp;
  MailQueueSettings queue;
};

// Reads mail.* from `config`, taking the defaults above for absent keys. A bad value is
// VALIDATION_ERROR naming the key (details {"key": ...}); the password is never quoted.
Result<MailSettings> mail_settings_from(const Config& config);

std::unique_ptr<Mailer> make_mailer(const MailSettings& settings);

// The checks every transport makes before sending: `to` one bare address, subject one line.
Status check_mail(const Mail& mail);

// A sender or recipient as configured: "Name <local@domain>" or "local@domain".
struct Mailbox {
  std::string name;  // may be empty; any printable text but '<' and '>'
  std::string address;
};
std::optional<Mailbox> parse_mailbox(std::string_view text);
// "local@domain" and nothing else: no display name, no angle brackets, no spaces or line
// breaks, no second address (what keeps a caller from injecting headers or recipients).
bool is_bare_address(std::string_view text);

}  // namespace opbase::host
