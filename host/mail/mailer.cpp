// The mail settings, the checks every transport makes, and the choice of transport (see
// mailer.hpp).
#include "mail/mailer.hpp"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "mail/log_mailer.hpp"
#include "mail/smtp_mailer.hpp"
#include "opbase/field_error.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// A printable ASCII character that may stand in a bare address: the characters that would end
// it, start a display name or a comment, or separate addresses are out.
bool is_address_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7f &&
         std::string_view("<>()[],;:\"\\").find(c) == std::string_view::npos;
}

bool has_control_char(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
  });
}

std::string trimmed(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  return std::string(text.substr(begin, text.find_last_not_of(" \t") + 1 - begin));
}

// Reads mail.* keys into settings, taking the default for an absent key; keeps the first error.
class SettingsReader {
 public:
  explicit SettingsReader(const Config& config) : config_(config) {}

  template <typename T>
  void choice(std::string_view key, std::initializer_list<std::pair<std::string_view, T>> options,
              T* out) {
    const auto text = config_.get(key);
    if (!text) return;
    for (const auto& [name, value] : options) {
      if (*text == name) {
        *out = value;
        return;
      }
    }
    std::string names;
    for (const auto& option : options)
      names += (names.empty() ? "" : ", ") + std::string(option.first);
    fail(key, "must be one of " + names + ", not '" + *text + "'");
  }

  template <typename T>
  void number(std::string_view key, int64_t min, int64_t max, T* out) {
    if (!config_.get(key)) return;
    auto value = config_.get_int(key, min, max);
    if (!value) return keep(key, value.status());
    *out = static_cast<T>(*value);
  }

  void boolean(std::string_view key, bool* out) {
    if (!config_.get(key)) return;
    auto value = config_.get_bool(key);
    if (!value) return keep(key, value.status());
    *out = *value;
  }

  // Trimmed, but for a password, whose spaces may be part of it.
  void text(std::string_view key, std::string* out, bool trim = true) {
    if (auto value = config_.get(key)) *out = trim ? trimmed(*value) : *value;
  }

  // A key's value was read but is wrong; `why` must not quote a secret.
  void fail(std::string_view key, const std::string& why) {
    keep(key, Status::validation("configuration key " + std::string(key) + " (from " +
                                 config_.source_of(key) + ") " + why));
  }

  const Status& status() const { return status_; }

 private:
  // The Config's own message names the key and the value; details name the key too.
  void keep(std::string_view key, const Status& status) {
    if (status_.is_ok()) status_ = Status::validation(status.message(), json{{"key", key}});
  }

  const Config& config_;
  Status status_;
};

void read_keys(SettingsReader& reader, MailSettings* s) {
  reader.choice("mail.transport", {{"log", MailTransport::kLog}, {"smtp", MailTransport::kSmtp}},
                &s->transport);
  reader.text("mail.from", &s->from);
  reader.text("mail.smtp.host", &s->smtp.host);
  reader.number("mail.smtp.port", 1, 65535, &s->smtp.port);
  reader.choice(
      "mail.smtp.starttls",
      {{"auto", StartTls::kAuto}, {"required", StartTls::kRequired}, {"off", StartTls::kOff}},
      &s->smtp.starttls);
  reader.text("mail.smtp.username", &s->smtp.username);
  reader.text("mail.smtp.password", &s->smtp.password, false);
  reader.number("mail.smtp.timeout_s", 1, 3600, &s->smtp.timeout_s);
  reader.boolean("mail.smtp.tls_verify", &s->smtp.tls_verify);
  reader.number("mail.queue.workers", 1, 16, &s->queue.workers);
  reader.number("mail.queue.max_attempts", 1, 100, &s->queue.max_attempts);
  reader.number("mail.queue.retry_s", 1, 3600, &s->queue.retry_s);
}

// What the keys mean together, and values no single-key read can judge.
void check_values(SettingsReader& reader, const MailSettings& s) {
  if (!parse_mailbox(s.from))
    reader.fail("mail.from",
                "must be 'address' or 'Name <address>' on one line, not '" + s.from + "'");
  if (s.smtp.host.empty() || has_control_char(s.smtp.host) ||
      s.smtp.host.find_first_of(" \t") != std::string::npos)
    reader.fail("mail.smtp.host", "must be a host name or address, not '" + s.smtp.host + "'");
  if (has_control_char(s.smtp.username)) reader.fail("mail.smtp.username", "must be one line");
  if (has_control_char(s.smtp.password))
    reader.fail("mail.smtp.password", "must be one line");  // never quoted: a secret
  if (!s.smtp.username.empty() && s.smtp.password.empty())
    reader.fail("mail.smtp.password", "must be set when mail.smtp.username is");
  if (s.smtp.username.empty() && !s.smtp.password.empty())
    reader.fail("mail.smtp.username", "must be set when mail.smtp.password is");
}

}  // namespace

Result<json> Mailer::submit(std::string_view /*project*/, const Mail& mail) {
  if (mail.discard) {
    if (Status checked = check_mail(mail); !checked) return checked;
    return json{{"sent", true}};
  }
  if (Status sent = send(mail); !sent) return sent;
  return json{{"sent", true}};
}

std::optional<Mailbox> parse_mailbox(std::string_view text) {
  Mailbox box;
  const std::string whole = trimmed(text);
  const size_t open = whole.find('<');
  if (open == std::string::npos) {
    box.address = whole;
  } else {
    if (whole.back() != '>') return std::nullopt;
    box.name = trimmed(std::string_view(whole).substr(0, open));
    box.address = whole.substr(open + 1, whole.size() - open - 2);
  }
  // The name may hold anything printable but brackets, which would make the address ambiguous.
  if (has_control_char(box.name) || box.name.find_first_of("<>") != std::string::npos)
    return std::nullopt;
  if (!is_bare_address(box.address)) return std::nullopt;
  return box;
}

bool is_bare_address(std::string_view text) {
  if (text.empty() || text.size() > 254) return false;
  if (!std::all_of(text.begin(), text.end(), is_address_char)) return false;
  const size_t at = text.find('@');
  if (at == 0 || at == std::string_view::npos || text.find('@', at + 1) != std::string_view::npos)
    return false;
  const std::string_view domain = text.substr(at + 1);
  return !domain.empty() && domain.front() != '.' && domain.back() != '.' &&
         domain.find("..") == std::string_view::npos;
}

Status check_mail(const Mail& mail) {
  if (!is_bare_address(mail.to)) {
    return field_error(
        "to",
        "mail: 'to' must be one e-mail address (local@domain), without a name, brackets, spaces "
        "or line breaks");
  }
  // A line break would end the Subject header and let the caller write headers of its own.
  if (has_control_char(mail.subject))
    return field_error("subject", "mail: 'subject' must be one line");
  return Status::ok();
}

Result<MailSettings> mail_settings_from(const Config& config) {
  MailSettings settings;
  SettingsReader reader(config);
  read_keys(reader, &settings);
  if (reader.status().is_ok()) check_values(reader, settings);
  if (!reader.status().is_ok()) return reader.status();
  return settings;
}

std::unique_ptr<Mailer> make_mailer(const MailSettings& settings) {
  if (settings.transport == MailTransport::kSmtp)
    return std::make_unique<SmtpMailer>(settings.from, settings.smtp);
  return std::make_unique<LogMailer>();
}

}  // namespace opbase::host
