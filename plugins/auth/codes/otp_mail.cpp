#include "codes/otp_mail.hpp"

#include "opbase/iso_time.hpp"

namespace opbase::auth {
namespace {

std::string_view purpose(OtpIntent intent) {
  switch (intent) {
    case OtpIntent::kSignin:
      return "sign in";
    case OtpIntent::kInvite:
      return "accept your invitation and set up your account";
    case OtpIntent::kChangePassword:
      return "change your password";
    case OtpIntent::kChangeEmail:
      return "change your e-mail address";
    case OtpIntent::kChangeUsername:
      return "change your username";
  }
  return "continue";
}

}  // namespace

Mail otp_mail(std::string_view to, std::string_view app_name, OtpIntent intent,
              std::string_view code, int64_t lifetime_ms, int64_t expires_ms) {
  const std::string minutes = std::to_string(lifetime_ms / 60'000);
  std::string text = "Your " + std::string(app_name) + " code to " + std::string(purpose(intent)) +
                     " is:\n\n    " + std::string(code) + "\n\nIt expires in " + minutes +
                     " minutes (at " + iso_time(expires_ms) +
                     ") and works once.\n\nIf you did not ask for it, ignore this mail: nothing "
                     "changes without the code.\n";
  return Mail{std::string(to), std::string(app_name) + " code: " + std::string(code),
              std::move(text)};
}

}  // namespace opbase::auth
