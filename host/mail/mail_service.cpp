// The `mail.send` host service (see mail_service.hpp).
#include "mail/mail_service.hpp"

#include <string>

#include "opbase/field_error.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// input[name] as a string into *out, or VALIDATION_ERROR naming the field.
Status read_string(const json& input, const char* name, std::string* out) {
  const auto found = input.find(name);
  if (found == input.end() || !found->is_string()) {
    return field_error(name, std::string(kMailSendService) + ": '" + name + "' must be a string");
  }
  *out = found->get<std::string>();
  return Status::ok();
}

}  // namespace

Result<json> call_mail_service(Mailer& mailer, std::string_view project, const json& input) {
  if (!input.is_object())
    return Status::validation(std::string(kMailSendService) + ": input must be a JSON object");
  Mail mail;
  for (auto [name, field] : {std::pair{"to", &mail.to}, std::pair{"subject", &mail.subject},
                             std::pair{"text", &mail.text}}) {
    if (Status read = read_string(input, name, field); !read) return read;
  }
  if (const auto discard = input.find("discard"); discard != input.end()) {
    if (!discard->is_boolean()) {
      return field_error("discard",
                         std::string(kMailSendService) + ": 'discard' must be true or false");
    }
    mail.discard = discard->get<bool>();
  }
  return mailer.submit(project, mail);
}

}  // namespace opbase::host
