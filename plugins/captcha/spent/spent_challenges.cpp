#include "spent/spent_challenges.hpp"

#include <string>

#include "opbase/field_error.hpp"
#include "opbase/store.hpp"
#include "opbase/store_access.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "captcha_spent";
constexpr int64_t kClockMarginMs = 10 * 60 * 1000;

}  // namespace

Status SpentChallenges::spend(std::string_view project, std::string_view challenge,
                              int64_t expires_s) const {
  store::InsertRequest insert{std::string(kCollection),
                              {json{{"_key", "captcha_" + std::string(challenge)},
                                    {"_userkey", nullptr},
                                    {"expires_ms", expires_s * 1000}}}};
  const Status inserted = store_.insert(project, insert);
  if (inserted.code() == store::kDuplicateKey) {
    return field_error("captcha", "captcha was already used", {{"reason", "replayed"}});
  }
  return inserted;
}

Status SpentChallenges::sweep(std::string_view project, int64_t now_ms) const {
  if (Status swept = opbase::sweep(store_, project, kCollection,
                                   {{"expires_ms:$lt", now_ms - kClockMarginMs}}, now_ms);
      !swept) {
    return swept;
  }
  auto purged = store_.purge(project, {store::State::kDeleted, now_ms});
  return purged ? Status::ok() : purged.status();
}

}  // namespace opbase::captcha
