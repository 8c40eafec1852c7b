// argon2id in PHC form, and password policies. The PHC string carries its own salt and costs,
// so a hash stays verifiable after the configured costs change. Runs go through libargon2's
// context API rather than its encoded one, because only the context takes an allocator: the
// kept memory of Argon2Workspace.
#include "passwords/password.hpp"

#include <argon2.h>
#include <openssl/crypto.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "passwords/argon2_workspace.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr uint32_t kSaltBytes = 16;
constexpr uint32_t kHashBytes = 32;
constexpr size_t kMaxHashBytes = 1024;  // far above any hash made here; bounds a stored one
constexpr uint32_t kMaxTCost = 64;
constexpr uint32_t kMaxMCostKib = 4u * 1024 * 1024;  // 4 GiB
constexpr uint32_t kMaxParallelism = 64;

// Random bytes, or none when the generator fails: hashing answers that as a Status, not thrown.
std::optional<std::string> random_or_none(size_t n) {
  try {
    return random_bytes(n);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

bool params_in_range(const Argon2Params& p) {
  return p.t_cost >= 1 && p.t_cost <= kMaxTCost && p.parallelism >= 1 &&
         p.parallelism <= kMaxParallelism && p.m_cost_kib >= 8 * p.parallelism &&
         p.m_cost_kib <= kMaxMCostKib;
}

// ---- the PHC string: $argon2id$v=19$m=<kib>,t=<passes>,p=<lanes>$<salt>$<hash>

struct Phc {
  std::string_view type;
  uint32_t version = 0;
  Argon2Params params;
  std::string_view salt;  // unpadded standard base64
  std::string_view hash;
};

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string_view::npos;
       at = text.find(separator, start)) {
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

// "<name>=<decimal uint32>".
bool read_field(std::string_view field, std::string_view name, uint32_t& out) {
  if (field.size() <= name.size() + 1 || field.substr(0, name.size()) != name ||
      field[name.size()] != '=') {
    return false;
  }
  const std::string_view digits = field.substr(name.size() + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return error == std::errc() && end == digits.data() + digits.size();
}

std::optional<Phc> parse_phc(std::string_view encoded) {
  const std::vector<std::string_view> fields = split(encoded, '$');
  if (fields.size() != 6 || !fields[0].empty()) return std::nullopt;
  Phc phc;
  phc.type = fields[1];
  const std::vector<std::string_view> costs = split(fields[3], ',');
  if (!read_field(fields[2], "v", phc.version) || costs.size() != 3 ||
      !read_field(costs[0], "m", phc.params.m_cost_kib) ||
      !read_field(costs[1], "t", phc.params.t_cost) ||
      !read_field(costs[2], "p", phc.params.parallelism)) {
    return std::nullopt;
  }
  phc.salt = fields[4];
  phc.hash = fields[5];
  return phc;
}

// Characters of n bytes in unpadded base64.
constexpr size_t base64_length(size_t n) { return (n * 4 + 2) / 3; }

// Standard base64 without padding, as the PHC string spells salts and hashes: base64url
// with two characters swapped.
std::string phc_base64(std::string_view bytes) {
  std::string text = base64url_encode(bytes);
  std::replace(text.begin(), text.end(), '-', '+');
  std::replace(text.begin(), text.end(), '_', '/');
  return text;
}

std::optional<std::string> phc_unbase64(std::string_view text) {
  if (text.find_first_of("-_") != std::string_view::npos) return std::nullopt;
  std::string url(text);
  std::replace(url.begin(), url.end(), '+', '-');
  std::replace(url.begin(), url.end(), '/', '_');
  return base64url_decode(url);
}

// One argon2id run in a kept workspace: the raw hash of `password` into `out`.
int run_argon2id(std::string_view password, std::string_view salt, const Argon2Params& params,
                 uint32_t version, std::string& out) {
  argon2_context context{};
  // argon2 never writes through pwd and salt: ARGON2_FLAG_CLEAR_PASSWORD is not set.
  context.pwd = reinterpret_cast<uint8_t*>(const_cast<char*>(password.data()));
  context.pwdlen = static_cast<uint32_t>(password.size());
  context.salt = reinterpret_cast<uint8_t*>(const_cast<char*>(salt.data()));
  context.saltlen = static_cast<uint32_t>(salt.size());
  context.out = reinterpret_cast<uint8_t*>(out.data());
  context.outlen = static_cast<uint32_t>(out.size());
  context.t_cost = params.t_cost;
  context.m_cost = params.m_cost_kib;
  context.lanes = params.parallelism;
  context.threads = params.parallelism;
  context.version = version;
  context.flags = ARGON2_DEFAULT_FLAGS;
  const Argon2Workspace workspace;
  workspace.attach(context);
  return argon2_ctx(&context, Argon2_id);
}

}  // namespace

// ---- hashing

Result<std::string> hash_password(std::string_view password, const Argon2Params& params) {
  if (!params_in_range(params)) return Status::validation("argon2 parameters out of range");
  if (password.size() > kMaxPasswordBytes) return Status::validation("password is too long");
  const std::optional<std::string> salt = random_or_none(kSaltBytes);
  if (!salt) return Status::internal("no randomness for a salt");
  std::string hash(kHashBytes, '\0');
  const int rc = run_argon2id(password, *salt, params, ARGON2_VERSION_NUMBER, hash);
  if (rc != ARGON2_OK) return Status::internal(std::string("argon2: ") + argon2_error_message(rc));
  // The PHC form libargon2's own encoder writes, so either can verify the other's hashes.
  return "$argon2id$v=" + std::to_string(ARGON2_VERSION_NUMBER) +
         "$m=" + std::to_string(params.m_cost_kib) + ",t=" + std::to_string(params.t_cost) +
         ",p=" + std::to_string(params.parallelism) + "$" + phc_base64(*salt) + "$" +
         phc_base64(hash);
}

bool verify_password(std::string_view password, std::string_view encoded) {
  if (password.size() > kMaxPasswordBytes) return false;
  const std::optional<Phc> phc = parse_phc(encoded);
  if (!phc || phc->type != "argon2id" || !params_in_range(phc->params) ||
      (phc->version != ARGON2_VERSION_10 && phc->version != ARGON2_VERSION_13)) {
    return false;
  }
  const std::optional<std::string> salt = phc_unbase64(phc->salt);
  const std::optional<std::string> expected = phc_unbase64(phc->hash);
  if (!salt || !expected || salt->size() < ARGON2_MIN_SALT_LENGTH ||
      expected->size() < ARGON2_MIN_OUTLEN || expected->size() > kMaxHashBytes) {
    return false;
  }
  std::string actual(expected->size(), '\0');
  if (run_argon2id(password, *salt, phc->params, phc->version, actual) != ARGON2_OK) return false;
  return constant_time_equal(actual, *expected);
}

bool needs_rehash(std::string_view encoded, const Argon2Params& params) {
  const std::optional<Phc> phc = parse_phc(encoded);
  return !phc || phc->type != "argon2id" || phc->version != ARGON2_VERSION_NUMBER ||
         !(phc->params == params) || phc->salt.size() != base64_length(kSaltBytes) ||
         phc->hash.size() != base64_length(kHashBytes);
}

bool verify_dummy_password(std::string_view password, const Argon2Params& params) {
  // Keyed by params: projects may configure different costs, and one shared slot would be
  // re-hashed on every switch, which would make unknown emails the slow ones.
  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;
  static std::mutex mutex;
  static std::map<Key, std::string> hashes;
  const Key key{params.t_cost, params.m_cost_kib, params.parallelism};
  std::string encoded;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = hashes.find(key);
    if (it == hashes.end()) {
      // A random password nobody knows; its hash is not secret, only its cost matters.
      std::optional<std::string> secret = random_or_none(16);
      if (!secret) return false;
      Result<std::string> made = hash_password(*secret, params);
      OPENSSL_cleanse(secret->data(), secret->size());
      if (!made) return false;
      if (hashes.size() >= 64) hashes.clear();  // bounded, whatever the settings do
      it = hashes.emplace(key, std::move(*made)).first;
    }
    encoded = it->second;
  }
  (void)verify_password(password, encoded);
  return false;
}

// ---- policies

namespace {

// The classes a password holds. Letters and digits are ASCII only: any other code point — an
// accented letter, a space, an emoji — counts as a symbol. Simple, predictable, and what users
// of the settings' booleans expect; Unicode categories would need ICU.
struct Composition {
  size_t code_points = 0;
  bool lowercase = false;
  bool uppercase = false;
  bool numbers = false;
  bool symbols = false;
};

// The length of the UTF-8 sequence that starts at text[i], or 0 when it is not valid UTF-8
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
size_t utf8_sequence(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    cp = lead & 0x1F;
    min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    cp = lead & 0x0F;
    min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    cp = lead & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

std::optional<Composition> compose(std::string_view password) {
  Composition out;
  for (size_t i = 0; i < password.size();) {
    const size_t length = utf8_sequence(password, i);
    if (length == 0) return std::nullopt;
    const char c = password[i];
    if (length == 1 && c >= 'a' && c <= 'z') {
      out.lowercase = true;
    } else if (length == 1 && c >= 'A' && c <= 'Z') {
      out.uppercase = true;
    } else if (length == 1 && c >= '0' && c <= '9') {
      out.numbers = true;
    } else {
      out.symbols = true;
    }
    ++out.code_points;
    i += length;
  }
  return out;
}

Status policy_error(std::string message) {
  return field_error("password_policy", "password_policy: " + std::move(message));
}

Result<bool> required_flag(const json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end()) return policy_error(std::string(name) + " is missing");
  if (!it->is_boolean()) return policy_error(std::string(name) + " must be true or false");
  return it->get<bool>();
}

// An integer in [1, kMaxPolicyLength]. nlohmann parses 8 as unsigned but json{8} is signed.
std::optional<uint32_t> length_bound(const json& value) {
  int64_t n = 0;
  if (value.is_number_unsigned()) {
    n = value.get<uint64_t>() > kMaxPolicyLength ? 0 : static_cast<int64_t>(value.get<uint64_t>());
  } else if (value.is_number_integer()) {
    n = value.get<int64_t>();
  }
  if (n < 1 || n > kMaxPolicyLength) return std::nullopt;
  return static_cast<uint32_t>(n);
}

Status read_length(const json& object, PasswordPolicy& policy) {
  const std::string rule =
      "LENGTH must be [min, max] with 1 <= min <= max <= " + std::to_string(kMaxPolicyLength);
  const auto it = object.find("LENGTH");
  if (it == object.end() || !it->is_array() || it->size() != 2) return policy_error(rule);
  const std::optional<uint32_t> min = length_bound((*it)[0]);
  const std::optional<uint32_t> max = length_bound((*it)[1]);
  if (!min || !max || *min > *max) return policy_error(rule);
  policy.min_length = *min;
  policy.max_length = *max;
  return Status::ok();
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

}  // namespace

PasswordPolicy named_policy(std::string_view name) {
  if (name == "LOW") return {6, 64, false, false, false, false};
  if (name == "HIGH") return {12, 64, true, true, true, true};
  return {};
}

Result<PasswordPolicy> policy_from_json(const json& value) {
  if (value.is_string()) {
    const std::string& name = value.get_ref<const std::string&>();
    if (name != "LOW" && name != "MEDIUM" && name != "HIGH") {
      return policy_error("a named policy is LOW, MEDIUM or HIGH");
    }
    return named_policy(name);
  }
  if (!value.is_object()) return policy_error("must be a policy name or an object");
  for (const auto& [key, ignored] : value.items()) {
    if (key != "LENGTH" && key != "LOWERCASE" && key != "NUMBERS" && key != "SYMBOLS" &&
        key != "UPPERCASE") {
      return policy_error("unknown key " + key);
    }
  }
  PasswordPolicy policy;
  if (Status length = read_length(value, policy); !length) return length;
  for (auto [name, flag] :
       {std::pair{"LOWERCASE", &policy.lowercase}, std::pair{"NUMBERS", &policy.numbers},
        std::pair{"SYMBOLS", &policy.symbols}, std::pair{"UPPERCASE", &policy.uppercase}}) {
    Result<bool> required = required_flag(value, name);
    if (!required) return required.status();
    *flag = *required;
  }
  return policy;
}

json to_json(const PasswordPolicy& policy) {
  return {{"LENGTH", {policy.min_length, policy.max_length}},
          {"LOWERCASE", policy.lowercase},
          {"NUMBERS", policy.numbers},
          {"SYMBOLS", policy.symbols},
          {"UPPERCASE", policy.uppercase}};
}

Status check_password(std::string_view password, const PasswordPolicy& policy) {
  const json policy_details{{"policy", to_json(policy)}};
  const std::optional<Composition> has = compose(password);
  if (!has) return field_error("password", "password is not valid UTF-8", policy_details);
  std::vector<std::string> missing;
  if (has->code_points < policy.min_length) {
    missing.push_back("at least " + std::to_string(policy.min_length) + " characters");
  }
  if (has->code_points > policy.max_length) {
    missing.push_back("at most " + std::to_string(policy.max_length) + " characters");
  }
  if (policy.lowercase && !has->lowercase) missing.push_back("a lowercase letter");
  if (policy.uppercase && !has->uppercase) missing.push_back("an uppercase letter");
  if (policy.numbers && !has->numbers) missing.push_back("a number");
  if (policy.symbols && !has->symbols) missing.push_back("a symbol");
  if (missing.empty()) return Status::ok();
  return field_error("password", "password must have " + join(missing), policy_details,
                     code::kWeakPassword);
}

}  // namespace opbase::auth
