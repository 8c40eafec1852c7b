// The host service `mail.send`: how a plugin (the auth plugin's one-time codes) sends a mail
// through the host's Mailer. Input {"to", "subject", "text"}, all strings, and optionally
// {"discard": true} for a decoy that is handled alike but never sent (mailer.hpp); the answer is
// the Mailer's submit(): {"queued": true} from the daemon's queue, {"sent": true} from a transport.
// Thread-safety: stateless; as safe as the Mailer (which is safe from any thread).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "mail/mailer.hpp"
#include "opbase/status.hpp"

namespace opbase::host {

inline constexpr std::string_view kMailSendService = "mail.send";

// VALIDATION_ERROR naming the field (details {"field": ...}) for a missing or non-string field
// or what the Mailer refuses; the Mailer's INTERNAL_ERROR when it could not take the mail.
// `project` is the calling project, whose store keeps the mail while it is queued.
Result<nlohmann::json> call_mail_service(Mailer& mailer, std::string_view project,
                                         const nlohmann::json& input);

}  // namespace opbase::host
