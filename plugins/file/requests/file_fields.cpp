#include "requests/file_fields.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "opbase/error_code.hpp"
#include "opbase/field_error.hpp"

namespace opbase::file {
namespace {

constexpr size_t kMaxName = 255;
constexpr size_t kMaxContentType = 255;
constexpr size_t kMaxMetadata = 16 * 1024;
constexpr size_t kMaxReaders = 100;
constexpr size_t kMaxKey = 64;

Status refused(std::string_view field, std::string message, std::string_view reason) {
  return field_error(field, std::string(field) + " " + std::move(message), {{"reason", reason}});
}

// The JSON parser has checked the UTF-8; what remains is what a header or a path would misread:
// the C0 controls and DEL, and the C1 controls (U+0080-U+009F: C2 80 to C2 9F).
bool has_control(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) return true;
    if (byte == 0xC2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9F) return true;
    }
  }
  return false;
}

// An RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~.
bool is_token(std::string_view text) {
  static constexpr std::string_view kMarks = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || kMarks.find(c) != std::string_view::npos;
  });
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// "name=value" with a token name and a token or plain quoted-string value.
bool is_parameter(std::string_view parameter) {
  const size_t equals = parameter.find('=');
  if (equals == std::string_view::npos || !is_token(parameter.substr(0, equals))) return false;
  const std::string_view value = parameter.substr(equals + 1);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    const std::string_view inner = value.substr(1, value.size() - 2);
    return inner.find_first_of("\"\\") == std::string_view::npos && !has_control(inner);
  }
  return is_token(value);
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Result<std::string> read_file_name(const nlohmann::json& value) {
  if (!value.is_string()) return refused("name", "must be a string", "type");
  const auto& name = value.get_ref<const std::string&>();
  if (name.empty() || name.size() > kMaxName) {
    return refused("name", "must be 1 to 255 bytes", "length");
  }
  if (name.find_first_of("/\\") != std::string::npos) {
    return refused("name", "must not contain '/' or '\\'", "separator");
  }
  if (has_control(name)) return refused("name", "must not contain control characters", "control");
  return name;
}

Result<std::string> read_content_type(const nlohmann::json& value) {
  if (!value.is_string()) return refused("content_type", "must be a string", "type");
  const auto& text = value.get_ref<const std::string&>();
  if (text.empty() || text.size() > kMaxContentType || has_control(text)) {
    return refused("content_type", "must be a media type of at most 255 bytes", "malformed");
  }
  // Its parts: the essence, then each parameter, split at ';'.
  std::vector<std::string_view> parts;
  for (std::string_view rest = text;;) {
    const size_t semicolon = rest.find(';');
    parts.push_back(trimmed(rest.substr(0, semicolon)));
    if (semicolon == std::string_view::npos) break;
    rest.remove_prefix(semicolon + 1);
  }
  const std::string_view essence = parts.front();
  const size_t slash = essence.find('/');
  if (slash == std::string_view::npos || !is_token(essence.substr(0, slash)) ||
      !is_token(essence.substr(slash + 1))) {
    return refused("content_type", "must be type/subtype, as image/png", "malformed");
  }
  std::string normal = lowercase(essence);
  for (size_t i = 1; i < parts.size(); ++i) {
    if (!is_parameter(parts[i])) {
      return refused("content_type", "has a malformed parameter", "malformed");
    }
    const size_t equals = parts[i].find('=');
    normal += "; " + lowercase(parts[i].substr(0, equals)) + std::string(parts[i].substr(equals));
  }
  return normal;
}

Result<int64_t> read_file_size(const nlohmann::json& value, int64_t max_size) {
  if (!value.is_number_integer()) return refused("size", "must be an integer", "type");
  if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(max_size)) {
    return field_error("size", "size is over files.max_size", {{"max_size", max_size}},
                       code::kPayloadTooLarge);
  }
  const auto size = value.get<int64_t>();
  if (size < 0) return refused("size", "must not be negative", "range");
  if (size > max_size) {
    return field_error("size", "size is over files.max_size", {{"max_size", max_size}},
                       code::kPayloadTooLarge);
  }
  return size;
}

Result<std::string> read_sha256(const nlohmann::json& value) {
  if (!value.is_string()) return refused("sha256", "must be a string", "type");
  const std::string digest = lowercase(value.get_ref<const std::string&>());
  if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return refused("sha256", "must be 64 hexadecimal digits", "malformed");
  }
  return digest;
}

namespace {

bool is_key(std::string_view text) {
  return !text.empty() && text.size() <= kMaxKey &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
         });
}

}  // namespace

Result<nlohmann::json> read_metadata(const nlohmann::json& value) {
  if (!value.is_object()) return refused("metadata", "must be an object", "type");
  if (value.dump().size() > kMaxMetadata) {
    return refused("metadata", "must be at most 16 KiB as JSON", "too_large");
  }
  return value;
}

Result<bool> read_public(const nlohmann::json& value) {
  if (!value.is_boolean()) return refused("public", "must be true or false", "type");
  return value.get<bool>();
}

Result<nlohmann::json> read_readers(const nlohmann::json& value) {
  if (!value.is_array()) return refused("readers", "must be an array of user keys", "type");
  nlohmann::json readers = nlohmann::json::array();
  for (const nlohmann::json& reader : value) {
    if (!reader.is_string() || !is_key(reader.get_ref<const std::string&>())) {
      return refused("readers", "must hold user keys (_userkey)", "malformed");
    }
    if (std::find(readers.begin(), readers.end(), reader) != readers.end()) continue;
    // Counted as they are kept, so each look-up above is over at most 100 keys.
    if (readers.size() == kMaxReaders) {
      return refused("readers", "may name at most 100 users", "too_many");
    }
    readers.push_back(reader);
  }
  return readers;
}

std::string field_name_for_error(std::string_view name) {
  if (name.size() <= kMaxKey) return std::string(name);
  size_t end = kMaxKey;
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80) --end;
  return std::string(name.substr(0, end));
}

Result<std::string> read_file_key(const nlohmann::json& body) {
  const auto key = body.find("_key");
  if (key == body.end() || key->is_null()) return refused("_key", "is required", "missing");
  if (!key->is_string() || !is_key(key->get_ref<const std::string&>())) {
    return refused("_key", "must be a file's _key", "type");
  }
  return key->get<std::string>();
}

}  // namespace opbase::file
