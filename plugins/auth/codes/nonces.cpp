// Nonces in the store. Spending one is a single conditional update (still unused, not yet
// expired → used), so two daemons never both accept the same nonce. Expired nonces are moved to
// the deleted state whenever a new one is issued, where the plugin's purge of deleted documents
// removes them.
#include "codes/nonces.hpp"

#include <utility>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "nonces";
constexpr size_t kNonceBytes = 16;  // 128 bits
// Far above the 22 characters of an issued nonce; anything longer is not worth hashing.
constexpr size_t kMaxNonceLength = 200;
// The tag of documents moved to the deleted state by sweep_expired().
constexpr std::string_view kSweepRef = "nonces_expired";

std::string document_key(std::string_view nonce) { return "nonce_" + sha256_hex(nonce); }

Status sweep_expired(const DocumentStore& store, std::string_view project, int64_t now_ms) {
  store::StateRequest request;
  request.collection = std::string(kCollection);
  request.scope = store::Scope::everyone();
  request.match = match_of({{"expires_ms:$lte", now_ms}});
  request.from = store::State::kActive;
  request.to = store::State::kDeleted;
  request.ref = kSweepRef;
  request.at_ms = now_ms;
  return store.change_state(project, request).status();
}

}  // namespace

Result<std::string> Nonces::issue(std::string_view project, int64_t now_ms) const {
  std::string nonce = base64url_encode(random_bytes(kNonceBytes));
  json doc = {{"_key", document_key(nonce)},
              {"_userkey", nullptr},
              {"_created_at", iso_time(now_ms)},
              {"expires_ms", now_ms + lifetime_ms_},
              {"used", false}};
  if (Status inserted =
          store_.insert(project, store::InsertRequest{std::string(kCollection), {std::move(doc)}});
      !inserted) {
    return inserted;
  }
  if (Status swept = sweep_expired(store_, project, now_ms); !swept) return swept;
  return nonce;
}

Result<bool> Nonces::consume(std::string_view project, std::string_view nonce,
                             int64_t now_ms) const {
  if (nonce.empty() || nonce.size() > kMaxNonceLength) return false;
  // One conditional update: of two requests racing with the same nonce, one changes it.
  Result<store::UpdateAnswer> answer =
      update_where(store_, project, kCollection,
                   {{"_key", document_key(nonce)}, {"used", false}, {"expires_ms:$gt", now_ms}},
                   set_fields({{"used", true}}));
  if (!answer) return answer.status();
  return !answer->documents.empty();
}

}  // namespace opbase::auth
