#include "accounts/email_address.hpp"

#include <algorithm>
#include <cctype>

#include "opbase/field_error.hpp"

namespace opbase::auth {
namespace {

constexpr size_t kMaxAddress = 254;
constexpr size_t kMaxLocal = 64;
constexpr size_t kMaxLabel = 63;

// Printable ASCII without what would let an address carry a second one or a header
// (space, quotes, brackets, commas, semicolons, backslash); UTF-8 bytes are allowed.
bool local_char(unsigned char c) {
  if (c >= 0x80) return true;
  if (c <= 0x20 || c == 0x7f) return false;
  return std::string_view("\"(),:;<>@[\\]").find(static_cast<char>(c)) == std::string_view::npos;
}

bool domain_label(std::string_view label) {
  if (label.empty() || label.size() > kMaxLabel || label.front() == '-' || label.back() == '-') {
    return false;
  }
  return std::all_of(label.begin(), label.end(),
                     [](unsigned char c) { return c >= 0x80 || std::isalnum(c) || c == '-'; });
}

bool valid_domain(std::string_view domain) {
  if (domain.find('.') == std::string_view::npos) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = domain.find('.', start);
    if (!domain_label(domain.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

bool is_valid_email(std::string_view address) {
  if (address.empty() || address.size() > kMaxAddress) return false;
  const size_t at = address.rfind('@');
  if (at == std::string_view::npos || at == 0 || at > kMaxLocal) return false;
  const std::string_view local = address.substr(0, at);
  if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos) {
    return false;
  }
  return std::all_of(local.begin(), local.end(), [](unsigned char c) { return local_char(c); }) &&
         valid_domain(address.substr(at + 1));
}

std::string canonical_email(std::string_view address) {
  std::string out(address);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<std::string> email_field(const nlohmann::json& body, std::string_view field) {
  const auto it = body.find(field);
  if (it == body.end() || !it->is_string()) {
    return field_error(field, std::string(field) + " is required and must be a string");
  }
  const std::string& value = it->get_ref<const std::string&>();
  if (!is_valid_email(value)) {
    return field_error(field, std::string(field) + " is not a valid e-mail address");
  }
  return value;
}

}  // namespace opbase::auth
