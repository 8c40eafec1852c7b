// The failures of offline translation, all PROCESSING_FAILED with details.error_type and
// details.retry_recommended (the shape every provider answers, provider/provider.hpp):
//   unsupported_offline          no offline route to the target (German, Japanese, Chinese,
//                                Russian); a model provider is needed. Not worth retrying.
//   unsupported_source_language  the text does not look English; the offline engine translates
//                                only from English. Not worth retrying.
//   unavailable                  Apertium or a language pair is not installed (the message names
//                                the missing file or program). Not worth retrying.
//   timeout                      no answer before the call's deadline. Worth retrying.
//   engine_failed                an Apertium process ended or answered out of step. Worth retrying.
//
// Thread-safety: plain functions.
#pragma once

#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::ai {

Status translation_failure(std::string_view error_type, std::string message,
                           bool retry_recommended);

// details.error_type of a failure made by translation_failure(); empty for any other Status.
std::string translation_error_type(const Status& status);

}  // namespace opbase::ai
