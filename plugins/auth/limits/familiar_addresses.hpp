// FamiliarAddresses: the client addresses each account has signed in from, for the sign-in
// policy (limits/signin_guard.hpp): from a familiar address a user is not held back by what
// strangers do to the account or by others behind the same address. An address becomes familiar to
// an account with a successful sign-in and stays so for `keep_days` after the last one. Kept in the
// project's store (collection `familiar_addresses`), each record named by a digest of the
// account's e-mail and the address, so neither is stored in clear.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

class FamiliarAddresses {
 public:
  // keep_days 0: no address is ever familiar.
  FamiliarAddresses(const DocumentStore& store, int64_t keep_days)
      : store_(store), keep_ms_(keep_days * 86'400'000) {}

  Result<bool> contains(std::string_view project, std::string_view email, std::string_view address,
                        int64_t now_ms) const;
  // After a successful sign-in. Best effort: a lost record only makes the next sign-in from
  // there count as a stranger's.
  void remember(std::string_view project, std::string_view email, std::string_view address,
                int64_t now_ms) const;
  // Moves expired records to the deleted state.
  Status sweep_expired(std::string_view project, int64_t now_ms) const;

 private:
  const DocumentStore& store_;
  int64_t keep_ms_;
};

}  // namespace opbase::auth
