// Redaction of audited params by meaning (see param_redaction.hpp).
#include "audit/param_redaction.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace opbase::host {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 6> kSecretWords = {"password", "secret", "token",
                                                          "otp",      "code",   "apikey"};

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

// Whether a part begins at name[i]: camelCase ("idToken"), the last capital of an acronym
// before a lowercase letter ("IDToken"), and letters beside digits ("token2").
bool starts_part(std::string_view name, size_t i) {
  const char before = name[i - 1], c = name[i];
  const bool acronym_ends =
      is_upper(before) && is_upper(c) && i + 1 < name.size() && is_lower(name[i + 1]);
  return (is_lower(before) && is_upper(c)) || acronym_ends || (is_letter(before) && is_digit(c)) ||
         (is_digit(before) && is_letter(c));
}

// `name`'s word parts, lowercased.
std::vector<std::string> word_parts(std::string_view name) {
  std::vector<std::string> parts;
  std::string part;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool inside = is_letter(c) || is_digit(c);
    if (!inside || (!part.empty() && starts_part(name, i))) {
      if (!part.empty()) parts.push_back(std::move(part));
      part.clear();
    }
    if (inside) part += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!part.empty()) parts.push_back(std::move(part));
  return parts;
}

bool is_secret_word(std::string_view part) {
  return std::any_of(kSecretWords.begin(), kSecretWords.end(), [&](std::string_view word) {
    return part == word ||
           (part.size() == word.size() + 1 && part.starts_with(word) && part.back() == 's');
  });
}

// Each "name=value" of a query as "name=[redacted]"; a part without '=' is all value.
std::string redacted_query(std::string_view query) {
  std::string out;
  while (true) {
    const size_t amp = query.find('&');
    const std::string_view parameter = query.substr(0, amp);
    const size_t equals = parameter.find('=');
    if (equals != std::string_view::npos) {
      out.append(parameter.substr(0, equals + 1)).append(kRedacted);
    } else if (!parameter.empty()) {
      out.append(kRedacted);
    }
    if (amp == std::string_view::npos) return out;
    out += '&';
    query.remove_prefix(amp + 1);
  }
}

// Every string within a secret field redacted; numbers, booleans and null kept.
void redact_all_strings(json& value) {
  if (value.is_string()) {
    value = kRedacted;
  } else if (value.is_structured()) {
    for (json& inner : value) redact_all_strings(inner);
  }
}

}  // namespace

bool is_secret_name(std::string_view name) {
  const std::vector<std::string> parts = word_parts(name);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (is_secret_word(parts[i])) return true;
    if (parts[i] == "api" && i + 1 < parts.size() &&
        (parts[i + 1] == "key" || parts[i + 1] == "keys")) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> redacted_url(std::string_view text) {
  size_t scheme = 0;
  for (const std::string_view prefix :
       {std::string_view("http://"), std::string_view("https://")}) {
    const bool same = text.size() >= prefix.size() &&
                      std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
                        return a == std::tolower(static_cast<unsigned char>(b));
                      });
    if (same) scheme = prefix.size();
  }
  if (scheme == 0) return std::nullopt;
  if (std::any_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7F; })) {
    return std::nullopt;
  }
  const std::string_view rest = text.substr(scheme);
  const size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  std::string_view authority = rest.substr(0, authority_end);
  const size_t at = authority.rfind('@');
  const bool has_userinfo = at != std::string_view::npos;
  if (has_userinfo) authority.remove_prefix(at + 1);
  if (authority.empty() || authority.front() == ':') return std::nullopt;  // no host

  std::string out(text.substr(0, scheme));
  if (has_userinfo) out.append(kRedacted).append("@");
  out.append(authority);
  std::string_view tail = rest.substr(authority_end);
  const size_t hash = tail.find('#');
  const std::string_view before_fragment = tail.substr(0, hash);
  const size_t question = before_fragment.find('?');
  out.append(before_fragment.substr(0, question));  // the path
  if (question != std::string_view::npos) {
    out.append("?").append(redacted_query(before_fragment.substr(question + 1)));
  }
  if (hash != std::string_view::npos) out.append("#").append(kRedacted);
  return out;
}

void redact_params(json& params) {
  if (params.is_object()) {
    for (auto& [name, inner] : params.items()) {
      if (is_secret_name(name)) {
        redact_all_strings(inner);
      } else {
        redact_params(inner);
      }
    }
  } else if (params.is_array()) {
    for (json& inner : params) redact_params(inner);
  } else if (params.is_string()) {
    if (auto url = redacted_url(params.get_ref<const std::string&>())) params = std::move(*url);
  }
}

}  // namespace opbase::host
