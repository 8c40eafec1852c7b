// Error codes of the API (docs/api.md#error-codes) and the HTTP status each one carries.
// One table, used by the host's gateway and by the SDK's fake host alike.
// Thread-safety: constants and a pure function; safe from any thread.
#pragma once

#include <string_view>

namespace opbase::code {

inline constexpr std::string_view kValidationError = "VALIDATION_ERROR";
inline constexpr std::string_view kInvalidOptions = "INVALID_OPTIONS";
inline constexpr std::string_view kContentEmpty = "CONTENT_EMPTY";
inline constexpr std::string_view kAuthenticationFailed = "AUTHENTICATION_FAILED";
inline constexpr std::string_view kInvalidCredentials = "INVALID_CREDENTIALS";
inline constexpr std::string_view kTokenExpired = "TOKEN_EXPIRED";
inline constexpr std::string_view kTokenInvalid = "TOKEN_INVALID";
inline constexpr std::string_view kOtpInvalid = "OTP_INVALID";
inline constexpr std::string_view kOtpExpired = "OTP_EXPIRED";
inline constexpr std::string_view kEmailNotVerified = "EMAIL_NOT_VERIFIED";
inline constexpr std::string_view kForbidden = "FORBIDDEN";
inline constexpr std::string_view kCollectionNotFound = "COLLECTION_NOT_FOUND";
inline constexpr std::string_view kUnknownOperation = "UNKNOWN_OPERATION";
inline constexpr std::string_view kEmailAlreadyExists = "EMAIL_ALREADY_EXISTS";
inline constexpr std::string_view kContentTooLong = "CONTENT_TOO_LONG";
inline constexpr std::string_view kPayloadTooLarge = "PAYLOAD_TOO_LARGE";
inline constexpr std::string_view kWeakPassword = "WEAK_PASSWORD";
inline constexpr std::string_view kInvalidLanguage = "INVALID_LANGUAGE";
inline constexpr std::string_view kRateLimitExceeded = "RATE_LIMIT_EXCEEDED";
inline constexpr std::string_view kQuotaExceeded = "QUOTA_EXCEEDED";
inline constexpr std::string_view kProcessingFailed = "PROCESSING_FAILED";
inline constexpr std::string_view kInternalError = "INTERNAL_ERROR";

// The HTTP status of an error code (docs/api.md#error-codes). A code this table does not know — a
// plugin's own — responds 400: the request could not be carried out as sent.
constexpr int http_status_of(std::string_view code) {
  struct Row {
    std::string_view code;
    int status;
  };
  constexpr Row rows[] = {
      {kValidationError, 400},      {kInvalidOptions, 400},     {kContentEmpty, 400},
      {kAuthenticationFailed, 401}, {kInvalidCredentials, 401}, {kTokenExpired, 401},
      {kTokenInvalid, 401},         {kOtpInvalid, 401},         {kOtpExpired, 401},
      {kEmailNotVerified, 403},     {kForbidden, 403},          {kCollectionNotFound, 404},
      {kUnknownOperation, 404},     {kEmailAlreadyExists, 409}, {kContentTooLong, 413},
      {kPayloadTooLarge, 413},      {kWeakPassword, 422},       {kInvalidLanguage, 422},
      {kRateLimitExceeded, 429},    {kQuotaExceeded, 429},      {kProcessingFailed, 502},
      {kInternalError, 500},
  };
  for (const Row& row : rows) {
    if (row.code == code) return row.status;
  }
  return 400;
}

}  // namespace opbase::code
