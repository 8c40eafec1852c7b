// Familiar addresses in the store (see limits/familiar_addresses.hpp): one document per (account,
// address), `expires_ms` pushed forward by each successful sign-in.
#include "limits/familiar_addresses.hpp"

#include <string>

#include "opbase/crypto.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "familiar_addresses";

std::string key_of(std::string_view email, std::string_view address) {
  std::string text(email);
  text.append("\n").append(address);
  return "fa_" + sha256_hex(text);
}

}  // namespace

Result<bool> FamiliarAddresses::contains(std::string_view project, std::string_view email,
                                         std::string_view address, int64_t now_ms) const {
  if (keep_ms_ <= 0) return false;
  auto found = find_by_key(store_, project, kCollection, key_of(email, address));
  if (!found) return found.status();
  return *found && (*found)->value("expires_ms", int64_t{0}) > now_ms;
}

void FamiliarAddresses::remember(std::string_view project, std::string_view email,
                                 std::string_view address, int64_t now_ms) const {
  if (keep_ms_ <= 0) return;
  const std::string key = key_of(email, address);
  const json expires = {{"expires_ms", now_ms + keep_ms_}};
  // Twice at most: the second update finds what a racing sign-in inserted, or a swept record
  // brought back.
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto updated =
        update_matched(store_, project, kCollection, {{"_key", key}}, set_fields(expires));
    if (!updated || *updated) return;
    json doc = {{"_key", key}, {"_userkey", nullptr}, {"_created_at", iso_time(now_ms)}};
    doc.update(expires);
    if (insert_or_revive(store_, project, kCollection, std::move(doc)).code() !=
        store::kDuplicateKey) {
      return;
    }
  }
}

Status FamiliarAddresses::sweep_expired(std::string_view project, int64_t now_ms) const {
  return sweep(store_, project, kCollection, {{"expires_ms:$lt", now_ms}}, now_ms);
}

}  // namespace opbase::auth
