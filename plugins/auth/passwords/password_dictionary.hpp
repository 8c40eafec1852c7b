// PasswordDictionary: refuses passwords that are easy to guess although they meet the policy's
// length and character classes ("Password1"), with Debian's cracklib: words of its dictionary
// and their usual manglings (capitals, digits appended, letters swapped for digits, reversed),
// keyboard and alphabet runs, too few different characters, and the e-mail's own name.
//
// Setting (auth.password_dictionary): "system" is cracklib's installed dictionary (package
// cracklib-runtime, /var/cache/cracklib/cracklib_dict), "off" checks nothing, anything else is
// the path of a dictionary made with cracklib-format and cracklib-packer, without its suffix.
// Thread-safety: check() may be called from any thread (cracklib is called under a lock).
#pragma once

#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::auth {

class PasswordDictionary {
 public:
  PasswordDictionary() = default;  // off

  // VALIDATION_ERROR naming auth.password_dictionary when the dictionary's files are missing,
  // so a server never runs without the check it was told to make.
  static Result<PasswordDictionary> open(std::string_view setting);

  // OK, or WEAK_PASSWORD "password is too easy to guess: <cracklib's reason>" with details
  // {"field": "password", "reason": <cracklib's reason>}. `email`'s local part counts as the
  // user's name. Never holds the password.
  Status check(std::string_view password, std::string_view email) const;

  bool enabled() const { return !path_.empty(); }

 private:
  explicit PasswordDictionary(std::string path) : path_(std::move(path)) {}
  std::string path_;  // empty: off
};

}  // namespace opbase::auth
