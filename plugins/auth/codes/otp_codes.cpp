// One-time codes in the store. The document of an (e-mail, intent) carries the HMAC of its code,
// its times, its wrong tries, whether it is spent, and a random `serial` that changes with every
// issue. Every change is a compare-and-set on (serial, spent, wrong_tries): an update whose
// match still selects the document only if nobody changed it since it was read. So a code
// replaced by a newer one, spent by another daemon, or voided by a concurrent wrong try is never
// spent by a stale read, and each wrong try is counted exactly once.
#include "codes/otp_codes.hpp"

#include <array>
#include <optional>
#include <utility>

#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "otp_codes";
// Bounds every compare-and-set loop. A lost race means another request changed the document in
// between; a few in a row is already unlikely, so past this the attempt is simply refused.
constexpr int kMaxRaces = 5;

struct IntentName {
  OtpIntent intent;
  std::string_view name;
};
constexpr std::array<IntentName, 5> kIntents{{{OtpIntent::kSignin, "signin"},
                                              {OtpIntent::kInvite, "invite"},
                                              {OtpIntent::kChangePassword, "change_password"},
                                              {OtpIntent::kChangeEmail, "change_email"},
                                              {OtpIntent::kChangeUsername, "change_username"}}};

// The same two results whether or not the e-mail exists or a code was ever issued to it, and
// never the code itself.
Status invalid() { return {code::kOtpInvalid, "the code is not valid"}; }
Status expired() { return {code::kOtpExpired, "the code has expired"}; }

// A code of `digits` decimal digits, each drawn alone and uniform.
std::string random_digits(size_t digits) {
  std::string code;
  while (code.size() < digits) code += static_cast<char>('0' + random_below(10));
  return code;
}

// A digest, so the store does not list e-mail addresses; the newline keeps ("a\nb", "c") and
// ("a", "b\nc") apart (intent names hold no newline).
std::string document_key(std::string_view email, OtpIntent intent) {
  std::string text(email);
  text.append("\n").append(intent_name(intent));
  return "otp_" + sha256_hex(text);
}

// The fields of a fresh code; the same for a first issue and for a replacement.
json code_fields(std::string_view secret, std::string_view code, int64_t now_ms,
                 const OtpPolicy& policy) {
  return {{"code_hmac", hmac_sha256_hex(secret, code)},
          {"issued_ms", now_ms},
          {"expires_ms", now_ms + policy.lifetime_ms},
          {"wrong_tries", 0},
          {"spent", false},
          {"serial", random_hex(16)}};
}

Status insert_code(const DocumentStore& store, std::string_view project, const std::string& key,
                   json fields, int64_t now_ms) {
  fields["_key"] = key;
  fields["_userkey"] = nullptr;
  fields["_created_at"] = iso_time(now_ms);
  return store.insert(project, store::InsertRequest{std::string(kCollection), {std::move(fields)}});
}

// Applies `change` to the document `match` selects, if it still does; true when it did.
Result<bool> change_if(const DocumentStore& store, std::string_view project, const json& match,
                       store::Change change) {
  Result<store::UpdateAnswer> answer =
      update_where(store, project, kCollection, match, std::move(change));
  if (!answer) return answer.status();
  return !answer->documents.empty();
}

bool well_formed(std::string_view code, size_t digits) {
  if (code.size() != digits) return false;
  for (char c : code) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

enum class Verdict { kVoid, kExpired, kWrong, kRight };

// What the offered code (as its HMAC; empty when it is malformed) means against the stored
// document. A wrong guess at an expired code is kVoid, not kExpired: OTP_EXPIRED for any guess
// would tell a caller without the code that one was issued to this address.
Verdict judge(const std::optional<json>& found, std::string_view offered_hmac, int64_t now_ms,
              const OtpPolicy& policy) {
  if (!found) return Verdict::kVoid;  // none issued
  const json& doc = *found;
  if (doc.value("spent", true) || doc.value("wrong_tries", int64_t{0}) >= policy.max_wrong_tries) {
    return Verdict::kVoid;
  }
  const bool right = !offered_hmac.empty() &&
                     constant_time_equal(offered_hmac, doc.value("code_hmac", std::string()));
  if (now_ms >= doc.value("expires_ms", int64_t{0}))
    return right ? Verdict::kExpired : Verdict::kVoid;
  return right ? Verdict::kRight : Verdict::kWrong;
}

// Selects the document only in the state it was read in.
json unchanged_since(const std::string& key, const json& doc) {
  return {{"_key", key},
          {"serial", doc.value("serial", std::string())},
          {"spent", false},
          {"wrong_tries", doc.value("wrong_tries", int64_t{0})}};
}

store::Change change_for(Verdict verdict) {
  store::Change change;
  if (verdict == Verdict::kRight) {
    change.set["spent"] = true;
  } else {
    change.inc["wrong_tries"] = 1;
  }
  return change;
}

}  // namespace

std::string_view intent_name(OtpIntent intent) {
  for (const IntentName& entry : kIntents) {
    if (entry.intent == intent) return entry.name;
  }
  return "signin";  // unreachable: every enumerator is in the table
}

Result<OtpIntent> parse_intent(std::string_view name) {
  for (const IntentName& entry : kIntents) {
    if (entry.name == name) return entry.intent;
  }
  return field_error(
      "intent",
      "intent must be one of signin, invite, change_password, change_email, change_username");
}

Result<std::string> OtpCodes::issue(std::string_view project, std::string_view secret,
                                    std::string_view email, OtpIntent intent,
                                    int64_t now_ms) const {
  const std::string code = random_digits(policy_.digits);
  const std::string key = document_key(email, intent);
  for (int attempt = 0; attempt < kMaxRaces; ++attempt) {
    const json fields = code_fields(secret, code, now_ms, policy_);
    const Status inserted = insert_code(store_, project, key, fields, now_ms);
    if (inserted) return code;
    if (inserted.code() != store::kDuplicateKey) return inserted;
    // An earlier code exists: overwrite all of it. The new serial voids the old code even for a
    // consume that read it a moment ago.
    store::Change replace;
    replace.set = fields;
    Result<bool> replaced = change_if(store_, project, {{"_key", key}}, std::move(replace));
    if (!replaced) return replaced.status();
    if (*replaced) return code;
  }
  return Status::internal("the one-time code could not be stored: its document in '" +
                          std::string(kCollection) + "' kept changing");
}

Status OtpCodes::consume(std::string_view project, std::string_view secret, std::string_view email,
                         OtpIntent intent, std::string_view code, int64_t now_ms) const {
  const std::string key = document_key(email, intent);
  // A malformed code is still a guess: it is counted like any wrong one.
  const std::string offered =
      well_formed(code, policy_.digits) ? hmac_sha256_hex(secret, code) : std::string();
  for (int attempt = 0; attempt < kMaxRaces; ++attempt) {
    Result<std::optional<json>> doc = find_by_key(store_, project, kCollection, key);
    if (!doc) return doc.status();
    const Verdict verdict = judge(*doc, offered, now_ms, policy_);
    if (verdict == Verdict::kVoid) return invalid();
    if (verdict == Verdict::kExpired) return expired();
    Result<bool> changed =
        change_if(store_, project, unchanged_since(key, **doc), change_for(verdict));
    if (!changed) return changed.status();
    if (*changed) return verdict == Verdict::kRight ? Status::ok() : invalid();
    // Someone changed the document since it was read: judge it again as it is now.
  }
  return invalid();
}

}  // namespace opbase::auth
