// cracklib's FascistCheckUser behind a lock (see passwords/password_dictionary.hpp). The library
// keeps static state while it reads its dictionary, so one check runs at a time; a check takes well
// under a millisecond and runs only on sign-up, invite and password changes.
#include "passwords/password_dictionary.hpp"

#include <sys/stat.h>

// crack.h uses size_t without including what declares it.
#include <cstddef>
// clang-format off
#include <crack.h>
// clang-format on

#include <mutex>
#include <string>

#include "opbase/field_error.hpp"

namespace opbase::auth {
namespace {

constexpr std::string_view kKey = "auth.password_dictionary";

std::mutex& cracklib_mutex() {
  static std::mutex mutex;
  return mutex;
}

bool file_exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

}  // namespace

Result<PasswordDictionary> PasswordDictionary::open(std::string_view setting) {
  if (setting == "off") return PasswordDictionary();
  const std::string path = setting == "system" ? GetDefaultCracklibDict() : std::string(setting);
  // A packed dictionary is three files; the .pwd one holds the words.
  if (path.empty() || !file_exists(path + ".pwd")) {
    return Status::validation(
        std::string(kKey) + ": no cracklib dictionary at " + path +
            ".pwd (install cracklib-runtime, give the path of another one, or set it off)",
        {{"key", kKey}});
  }
  return PasswordDictionary(path);
}

Status PasswordDictionary::check(std::string_view password, std::string_view email) const {
  if (!enabled()) return Status::ok();
  const std::string text(password);
  std::string user(email.substr(0, email.find('@')));
  if (user.empty()) user = "user";
  const char* reason = nullptr;
  {
    const std::lock_guard lock(cracklib_mutex());
    reason = FascistCheckUser(text.c_str(), path_.c_str(), user.c_str(), nullptr);
  }
  if (reason == nullptr) return Status::ok();
  const std::string why(reason);  // a constant string of the library
  return field_error("password", "password is too easy to guess: " + why, {{"reason", why}},
                     code::kWeakPassword);
}

}  // namespace opbase::auth
