// The refusals the /files/ route answers (docs/api.md#the-files-route), each the API's error
// envelope with details.reason, so a client reads a refused upload as it reads a refused op.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "opbase/error_code.hpp"
#include "opbase/status.hpp"

namespace opbase::file {

// AUTHENTICATION_FAILED (401): the URL is no longer or not at all a credential.
inline Status url_refused(std::string message, std::string_view reason) {
  return Status(code::kAuthenticationFailed, std::move(message), {{"reason", reason}});
}

// A URL whose signature does not hold, or names a project this daemon does not serve: one answer
// for both, so project ids cannot be probed.
inline Status bad_signature() {
  return url_refused("this URL's signature does not hold", "signature");
}

// VALIDATION_ERROR, sent with 404: no such file, or not one this URL may reach.
inline Status no_such_file() {
  return Status::validation("no such file", {{"reason", "not_found"}});
}

// VALIDATION_ERROR (400): the upload does not match what was presigned.
inline Status upload_mismatch(std::string message, std::string_view reason) {
  return Status::validation(std::move(message), {{"reason", reason}});
}

}  // namespace opbase::file
