// Status and Result<T>: how expected failures travel as values, in plugins and in the host.
// A Status is either ok or an API error: a spec code (error_code.hpp), a message for people and
// optional JSON details. Exceptions stay inside a component; at the plugin edge they become a
// Status. Thread-safety: plain values; copy freely.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "opbase/error_code.hpp"

namespace opbase {

class Status {
 public:
  Status() = default;  // ok
  Status(std::string_view code, std::string message, nlohmann::json details = nullptr)
      : code_(code), message_(std::move(message)), details_(std::move(details)) {}

  static Status ok() { return {}; }
  static Status validation(std::string message, nlohmann::json details = nullptr) {
    return {code::kValidationError, std::move(message), std::move(details)};
  }
  static Status internal(std::string message) { return {code::kInternalError, std::move(message)}; }

  bool is_ok() const { return code_.empty(); }
  explicit operator bool() const { return is_ok(); }

  const std::string& code() const { return code_; }
  const std::string& message() const { return message_; }
  // A JSON object, or null when there are no details.
  const nlohmann::json& details() const { return details_; }
  int http_status() const { return is_ok() ? 200 : code::http_status_of(code_); }

  // "CODE: message", for logs and test failure output.
  std::string to_string() const { return is_ok() ? "OK" : code_ + ": " + message_; }

 private:
  std::string code_;
  std::string message_;
  nlohmann::json details_;
};

// Either a value or a failed Status. Construct from either; never from an ok Status.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : v_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool is_ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return is_ok(); }

  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T&& operator*() && { return std::move(*this).value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The failure; ok when the Result holds a value.
  Status status() const { return is_ok() ? Status::ok() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace opbase
