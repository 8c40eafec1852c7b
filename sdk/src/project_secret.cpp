// A project's random secret kept in the plugin's store (see project_secret.hpp).
#include "opbase/project_secret.hpp"

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"
#include "opbase/store.hpp"
#include "opbase/store_access.hpp"

namespace opbase {
namespace {

using nlohmann::json;

constexpr size_t kSecretBytes = 32;
// Two daemons making the first secret at once: the loser reads the winner's.
constexpr int kAttempts = 3;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The bytes of a stored secret document, or "" when it is unreadable.
std::string secret_in(const json& doc) {
  const auto text = doc.find("secret");
  const std::string hex = text != doc.end() && text->is_string() ? text->get<std::string>() : "";
  if (hex.size() != kSecretBytes * 2) return "";
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = hex_digit(hex[i]), low = hex_digit(hex[i + 1]);
    if (high < 0 || low < 0) return "";
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

}  // namespace

Result<std::string> ProjectSecret::of(std::string_view project) {
  {
    const std::lock_guard lock(mutex_);
    if (auto found = secrets_.find(project); found != secrets_.end()) return found->second;
  }
  auto secret = load_or_make(project);
  if (!secret) return secret;
  const std::lock_guard lock(mutex_);
  return secrets_.emplace(std::string(project), *secret).first->second;
}

Result<std::string> ProjectSecret::load_or_make(std::string_view project) const {
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    auto found = find_by_key(store_, project, collection_, key_);
    if (!found) return found.status();
    if (*found) {
      std::string secret = secret_in(**found);
      if (secret.empty()) {
        return Status::internal("the stored secret " + key_ + " (" + collection_ +
                                ") cannot be read");
      }
      return secret;
    }
    const std::string secret = random_bytes(kSecretBytes);
    store::InsertRequest insert{
        collection_, {json{{"_key", key_}, {"_userkey", nullptr}, {"secret", hex_encode(secret)}}}};
    const Status inserted = store_.insert(project, insert);
    if (inserted) return secret;
    if (inserted.code() != store::kDuplicateKey) return inserted;
  }
  return Status::internal("the secret " + key_ + " could not be made");
}

}  // namespace opbase
