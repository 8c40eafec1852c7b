// Nonces for OAuth flows (auth.nonce): 128 random bits, kept ten minutes in the project's store
// (collection `nonces`, `_key` = SHA-256 of the nonce, so the store does not hold usable ones),
// single use: consume() returns true once, for a nonce issued and not yet expired. Each issue()
// moves the expired nonces to the deleted state; the plugin's purge of deleted documents
// (store.purge) removes them for good.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

class Nonces {
 public:
  explicit Nonces(const DocumentStore& store, int64_t lifetime_ms = int64_t{10} * 60 * 1000)
      : store_(store), lifetime_ms_(lifetime_ms) {}

  Result<std::string> issue(std::string_view project, int64_t now_ms) const;
  // True exactly once for an issued nonce before it expires; false for anything else (unknown,
  // used, expired). A failed Status only when the store fails.
  Result<bool> consume(std::string_view project, std::string_view nonce, int64_t now_ms) const;

 private:
  const DocumentStore& store_;
  int64_t lifetime_ms_;
};

}  // namespace opbase::auth
