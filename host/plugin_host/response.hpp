// The host's side of `opbase_response`: what one op or service call returned. Created by the
// host for one call, written by the plugin through host->respond / respond_error, read by the
// host after the call returns. Used by one thread at a time.
#pragma once

#include <optional>
#include <string>

#include "opbase/abi.h"
#include "opbase/status.hpp"

struct opbase_response {
  std::optional<std::string> data;       // JSON text
  std::optional<std::string> meta;       // JSON object text
  std::optional<std::string> top_level;  // JSON object text
  bool failed = false;
  std::string code;
  std::string message;
  std::string details;  // JSON object text, or empty
  int http_status = 0;  // 0: from the code

  // The error as a Status (details parsed); ok when not failed.
  opbase::Status error_status() const;
};

namespace opbase::host {

// The implementations behind host->respond / host->respond_error.
opbase_rc response_set_part(opbase_response* response, opbase_part part, opbase_str json);
opbase_rc response_set_error(opbase_response* response, opbase_str code, opbase_str message,
                             opbase_str details, int http_status);

}  // namespace opbase::host
