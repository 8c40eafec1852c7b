// The `smtp` mail transport (see smtp_mailer.hpp): the SMTP dialogue on Poco's
// SMTPClientSession and the message on Poco's MailMessage.
#include "mail/smtp_mailer.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "Poco/Base64Encoder.h"
#include "Poco/DateTimeFormatter.h"
#include "Poco/Environment.h"
#include "Poco/Exception.h"
#include "Poco/Net/Context.h"
#include "Poco/Net/MailMessage.h"
#include "Poco/Net/MailRecipient.h"
#include "Poco/Net/NetException.h"
#include "Poco/Net/SMTPClientSession.h"
#include "Poco/Net/SecureStreamSocket.h"
#include "Poco/Net/SocketAddress.h"
#include "Poco/Net/StreamSocket.h"
#include "Poco/String.h"
#include "Poco/Timespan.h"
#include "Poco/Timestamp.h"
#include "opbase/crypto.hpp"

namespace opbase::host {
namespace {

using Poco::Net::Context;
using Poco::Net::MailMessage;
using Poco::Net::SMTPException;

std::string base64(std::string_view bytes) {
  std::ostringstream out;
  Poco::Base64Encoder encoder(out);
  encoder.rdbuf()->setLineLength(0);  // one line: SMTP takes an AUTH argument on one line
  encoder.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  encoder.close();
  return out.str();
}

bool is_plain_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// RFC 2047 "B" encoded words holding whole UTF-8 characters (a character split between two
// words cannot be decoded), folded so that no line is longer than the 76 characters RFC 2047
// allows; `used` is what the first line already holds ("Subject: ").
std::string encoded_words(std::string_view text, size_t used) {
  constexpr size_t kLine = 76;
  constexpr size_t kFrame = 12;  // "=?UTF-8?B?" and "?="
  const auto is_continuation = [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
  };
  std::string out;
  while (!text.empty()) {
    const size_t room = (kLine - std::min(used, kLine - kFrame - 4) - kFrame) / 4 * 3;
    size_t n = std::min(room, text.size());
    while (n > 0 && n < text.size() && is_continuation(text[n])) --n;
    if (n == 0) n = std::min(room, text.size());  // not UTF-8: cut anywhere
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64(text.substr(0, n)) + "?=";
    text.remove_prefix(n);
    used = 1;  // the continuation line's leading space
  }
  return out;
}

// Header text as it may stand after "<name>: ": plain ASCII as it is, anything else, or a line
// longer than the 78 characters mail wants, as encoded words.
std::string header_text(std::string_view text, size_t name_size) {
  if (is_plain_ascii(text) && name_size + 2 + text.size() <= 78) return std::string(text);
  return encoded_words(text, name_size + 2);
}

// The From header: the display name encoded, or quoted when it holds a character that would
// end it (RFC 5322 specials), then the address.
std::string from_header(const Mailbox& from) {
  if (from.name.empty()) return from.address;
  std::string name = from.name;
  const bool quoted = name.size() >= 2 && name.front() == '"' && name.back() == '"';
  if (!is_plain_ascii(name)) {
    name = encoded_words(name, MailMessage::HEADER_FROM.size() + 2);
  } else if (!quoted && name.find_first_of("()<>[]:;@\\,.\"") != std::string::npos) {
    std::string escaped;
    for (char c : name) escaped += (c == '"' || c == '\\') ? std::string{'\\', c} : std::string{c};
    name = '"' + escaped + '"';
  }
  return name + " <" + from.address + ">";
}

// Every line end as CRLF: SMTP allows no other, and a bare LF is read differently by different
// servers.
std::string crlf_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += (text[i] == '\r' || text[i] == '\n') ? std::string("\r\n") : std::string(1, text[i]);
  }
  return out;
}

void compose(const Mail& mail, const Mailbox& from, MailMessage* message) {
  message->setSender(from_header(from));
  message->addRecipient(
      Poco::Net::MailRecipient(Poco::Net::MailRecipient::PRIMARY_RECIPIENT, mail.to));
  message->setSubject(header_text(mail.subject, MailMessage::HEADER_SUBJECT.size()));
  // RFC 5322 asks for a numeric zone; Poco's RFC 1123 format writes "GMT".
  message->set(MailMessage::HEADER_DATE,
               Poco::DateTimeFormatter::format(Poco::Timestamp(), "%w, %e %b %Y %H:%M:%S +0000"));
  const std::string domain = from.address.substr(from.address.find('@') + 1);
  message->set("Message-ID", "<" + random_hex(16) + "@" + domain + ">");
  message->set("MIME-Version", "1.0");
  message->setContentType("text/plain; charset=UTF-8");
  // Quoted-printable keeps the message 7-bit (any relay carries it, no 8BITMIME needed) and its
  // lines short, while an ASCII code in it stays readable in the raw message.
  message->setContent(crlf_lines(mail.text), MailMessage::ENCODING_QUOTED_PRINTABLE);
}

// What the server's EHLO reply offers, of what we use.
struct Extensions {
  bool starttls = false;
  std::vector<std::string> auth;  // mechanisms, upper case
};

// The reply is "250-name\n250-EXTENSION args\n...\n250 LAST" (DialogSocket joins lines with \n).
Extensions parse_extensions(const std::string& reply) {
  Extensions offered;
  std::istringstream lines(reply);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line.size() > 4 ? Poco::toUpper(line.substr(4)) : "");
    std::string keyword;
    words >> keyword;
    if (keyword == "STARTTLS") offered.starttls = true;
    // "AUTH=LOGIN PLAIN" is the form of servers from before RFC 4954.
    if (keyword.starts_with("AUTH=")) offered.auth.push_back(keyword.substr(5));
    if (keyword != "AUTH" && !keyword.starts_with("AUTH=")) continue;
    for (std::string mechanism; words >> mechanism;) offered.auth.push_back(mechanism);
  }
  return offered;
}

bool offers(const Extensions& offered, std::string_view mechanism) {
  return std::find(offered.auth.begin(), offered.auth.end(), mechanism) != offered.auth.end();
}

Poco::Net::StreamSocket connect(const SmtpSettings& settings) {
  const Poco::Timespan timeout(settings.timeout_s, 0);
  Poco::Net::StreamSocket socket;
  socket.connect(Poco::Net::SocketAddress(settings.host, settings.port), timeout);
  socket.setReceiveTimeout(timeout);
  socket.setSendTimeout(timeout);
  return socket;
}

Context::Ptr make_tls_context(bool verify) {
  Context::Params params;
  params.verificationMode = verify ? Context::VERIFY_RELAXED : Context::VERIFY_NONE;
  params.loadDefaultCAs = verify;  // OpenSSL's default paths: the system's CA bundle
  params.cipherList = "DEFAULT";   // OpenSSL's own choice, not Poco's older "ALL:..." list
  Context::Ptr context = new Context(Context::TLS_CLIENT_USE, params);
  context->requireMinimumProtocol(Context::PROTO_TLSV1_2);
  return context;
}

// Writing to a connection the server has closed raises SIGPIPE, which ends the process. Poco's
// own threads block it, but send() may run on any thread: block it for the while, and discard
// one raised meanwhile (pending on this thread) before restoring the thread's mask.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    if (sigismember(&old_, SIGPIPE)) return;  // blocked before us: leave it as it was
    const timespec now{0, 0};
    while (sigtimedwait(&pipe_, nullptr, &now) == SIGPIPE) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
};

}  // namespace

// One SMTP connection. Poco's SMTPClientSession frames commands and replies, sends the message
// (dot-stuffed) and says QUIT; this adds what Poco 1.11 lacks or gets wrong for us:
// - the EHLO reply's extensions, to decide on STARTTLS and the AUTH mechanism;
// - STARTTLS that checks the certificate against the configured host name (and sends it as
//   SNI): SecureSMTPClientSession::startTLS() takes the name from its own construction, which
//   for a socket connected by us (the only way to bound the connect time) is not that name;
// - AUTH PLAIN with the empty authorisation identity RFC 4616 asks for (Poco's omits the first
//   NUL) and single-line base64 (Poco's breaks long credentials into lines), and AUTH LOGIN
//   whose errors are ours, so that no error text is built around a credential.
class SmtpMailer::Session : public Poco::Net::SMTPClientSession {
 public:
  explicit Session(const Poco::Net::StreamSocket& socket) : SMTPClientSession(socket) {}

  // Reads the greeting (first time only) and says EHLO (HELO to a server refusing EHLO).
  Extensions hello(const std::string& client_name) {
    std::string reply;
    login(client_name, reply);
    return parse_extensions(reply);
  }

  void start_tls(Context::Ptr context, const std::string& host_name) {
    std::string reply;
    const int status = sendCommand("STARTTLS", reply);
    if (!isPositiveCompletion(status)) throw SMTPException("STARTTLS refused", reply, status);
    socket() = Poco::Net::SecureStreamSocket::attach(socket(), host_name, context);
  }

  void authenticate(const Extensions& offered, const std::string& user,
                    const std::string& password) {
    if (offers(offered, "PLAIN")) return auth_plain(user, password);
    if (offers(offered, "LOGIN")) return auth_login(user, password);
    throw SMTPException(offered.auth.empty()
                            ? "a login is configured but the server offers no AUTH (some offer it "
                              "only after STARTTLS)"
                            : "a login is configured but the server offers neither AUTH PLAIN nor "
                              "AUTH LOGIN");
  }

  // After a failure the dialogue's state is unknown: close without the QUIT the destructor
  // would otherwise send and wait a whole time-out for.
  void abort() { socket().close(); }

 private:
  void auth_plain(const std::string& user, const std::string& password) {
    std::string reply;
    const std::string credentials = std::string(1, '\0') + user + '\0' + password;
    expect(sendCommand("AUTH PLAIN", base64(credentials), reply), reply, true);
  }

  void auth_login(const std::string& user, const std::string& password) {
    std::string reply;
    expect(sendCommand("AUTH LOGIN", reply), reply, false);
    expect(sendCommand(base64(user), reply), reply, false);
    expect(sendCommand(base64(password), reply), reply, true);
  }

  // A 2xx reply when `last`, else 3xx; otherwise the login failed, with the server's reply.
  static void expect(int status, const std::string& reply, bool last) {
    if (last ? isPositiveCompletion(status) : isPositiveIntermediate(status)) return;
    throw SMTPException("login failed", reply, status);
  }
};

SmtpMailer::SmtpMailer(std::string from, SmtpSettings settings)
    : from_(parse_mailbox(from).value_or(Mailbox{"", from})), settings_(std::move(settings)) {
  if (settings_.starttls == StartTls::kOff) return;
  try {
    tls_ = make_tls_context(settings_.tls_verify);
  } catch (const Poco::Exception& e) {
    tls_error_ = e.displayText();
  }
}

SmtpMailer::~SmtpMailer() = default;

Status SmtpMailer::send(const Mail& mail) {
  if (Status checked = check_mail(mail); !checked) return checked;
  std::string failure;
  SigpipeBlocked no_sigpipe;
  try {
    deliver(mail);
    return Status::ok();
  } catch (const Poco::Exception& e) {
    failure = e.displayText();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  return Status::internal("mail not sent through " + settings_.host + ":" +
                          std::to_string(settings_.port) + ": " + redacted(failure));
}

void SmtpMailer::deliver(const Mail& mail) const {
  Session session(connect(settings_));
  try {
    converse(session, mail);
  } catch (...) {
    session.abort();
    throw;
  }
}

void SmtpMailer::converse(Session& session, const Mail& mail) const {
  const std::string client_name = Poco::Environment::nodeName();
  Extensions offered = session.hello(client_name);
  if (wants_tls(offered.starttls)) {
    session.start_tls(tls_, settings_.host);
    offered = session.hello(client_name);  // RFC 3207: forget what was offered before TLS
  }
  if (!settings_.username.empty())
    session.authenticate(offered, settings_.username, settings_.password);
  MailMessage message;
  compose(mail, from_, &message);
  session.sendMessage(message);
  // The server took the mail with its reply to the data; a failed QUIT changes nothing, and
  // reporting it would make the caller send the same code twice.
  try {
    session.close();
  } catch (const Poco::Exception&) {
  }
}

bool SmtpMailer::wants_tls(bool offered) const {
  if (settings_.starttls == StartTls::kOff) return false;
  if (!offered && settings_.starttls == StartTls::kRequired)
    throw SMTPException("mail.smtp.starttls is 'required' but the server does not offer STARTTLS");
  if (offered && !tls_) throw SMTPException("no TLS context: " + tls_error_);
  return offered;
}

// Error text comes from Poco and the server; neither should hold the password, but a server
// echoing what it got must not leak it either.
std::string SmtpMailer::redacted(std::string text) const {
  const std::string& password = settings_.password;
  if (password.empty()) return text;
  const std::string plain = std::string(1, '\0') + settings_.username + '\0' + password;
  for (const std::string& secret : {password, base64(password), base64(plain)}) {
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3))
      text.replace(at, secret.size(), "***");
  }
  return text;
}

}  // namespace opbase::host
