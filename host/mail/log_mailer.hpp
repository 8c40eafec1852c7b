// LogMailer: the `log` mail transport, for development. Each mail becomes one info line of the
// server log; nothing leaves the machine.
// Thread-safety: stateless; send() is safe from any thread.
#pragma once

#include "mail/mailer.hpp"

namespace opbase::host {

class LogMailer final : public Mailer {
 public:
  // Warns once that mails go to the log, so a production server left on `log` says so.
  LogMailer();
  Status send(const Mail& mail) override;
};

}  // namespace opbase::host
