// The `log` mail transport (see log_mailer.hpp).
#include "mail/log_mailer.hpp"

#include "log/log.hpp"

namespace opbase::host {

LogMailer::LogMailer() {
  log::warn("mail",
            "mail.transport=log: mails, and the sign-in codes in them, are written to this log "
            "instead of being sent; set mail.transport=smtp outside development");
}

Status LogMailer::send(const Mail& mail) {
  if (Status checked = check_mail(mail); !checked) return checked;
  // The body goes to the log on purpose: it holds the one-time code, and reading it here is how
  // a developer signs in without a mail server. This is why `log` is for development only.
  // One entry per mail (the logger turns the body's line breaks into spaces), so mails sent at
  // once from several threads never interleave.
  log::info("mail", "mail to " + mail.to + ": " + mail.subject + " | " + mail.text);
  return Status::ok();
}

}  // namespace opbase::host
