// SmtpMailer: the `smtp` mail transport. Each send() opens its own connection to the configured
// server: EHLO, STARTTLS (per mail.smtp.starttls), AUTH PLAIN or LOGIN when a user is set, one
// message, QUIT. A connection per mail keeps no state between mails: no idle connection for the
// server to drop, no session to lock between threads, no half-failed dialogue to recover; the
// mails are sign-in codes, few and far between, so the extra handshake costs nothing that
// matters.
//
// The message is text/plain; charset=UTF-8 in quoted-printable, with From, To, Subject (RFC 2047
// words when not plain ASCII), Date, Message-ID and MIME-Version.
// Thread-safety: send() is safe from any thread at once (the TLS context is shared, read-only).
#pragma once

#include <string>

#include "Poco/AutoPtr.h"
#include "mail/mailer.hpp"

namespace Poco::Net {
class Context;
}

namespace opbase::host {

class SmtpMailer final : public Mailer {
 public:
  // `from` is mail.from ("Name <address>" or "address"), as mail_settings_from() checked it.
  SmtpMailer(std::string from, SmtpSettings settings);
  ~SmtpMailer() override;

  // Connects within timeout_s and waits at most timeout_s for each reply. VALIDATION_ERROR
  // (before connecting) for a mail check_mail() refuses; INTERNAL_ERROR naming the server and
  // quoting its reply when the mail was not accepted.
  Status send(const Mail& mail) override;

 private:
  class Session;
  void deliver(const Mail& mail) const;
  void converse(Session& session, const Mail& mail) const;
  bool wants_tls(bool offered) const;
  std::string redacted(std::string text) const;

  Mailbox from_;
  SmtpSettings settings_;
  // Built once: loading the system's CA bundle for every mail would be wasted work. Null when
  // OpenSSL could not make one (tls_error_ says why); then only starttls=off can send.
  Poco::AutoPtr<Poco::Net::Context> tls_;
  std::string tls_error_;
};

}  // namespace opbase::host
