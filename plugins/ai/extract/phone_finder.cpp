#include "extract/phone_finder.hpp"

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumbermatch.h>
#include <phonenumbers/phonenumbermatcher.h>
#include <phonenumbers/phonenumberutil.h>

namespace opbase::ai::extract {

namespace {

namespace pn = i18n::phonenumbers;

constexpr double kConfidence = 0.95;
// With a '+' and a country code nothing was guessed.
constexpr double kInternationalConfidence = 0.97;
// The matcher gives up after this many candidates that were no number. Each costs it a few
// regular expressions: 50,000 characters of figures would otherwise take over a second, while
// prose of that length holds far fewer candidates.
constexpr int kMaxTries = 1000;

}  // namespace

std::vector<FoundEntity> find_phones(std::string_view text, const std::string& region,
                                     const Claims& claims) {
  std::vector<FoundEntity> found;
  const pn::PhoneNumberUtil& util = *pn::PhoneNumberUtil::GetInstance();
  const std::string owned(text);
  pn::PhoneNumberMatcher matcher(util, owned, region, pn::PhoneNumberMatcher::VALID, kMaxTries);
  pn::PhoneNumberMatch match;
  while (matcher.HasNext() && matcher.Next(&match)) {
    // Offsets are bytes into the UTF-8 text.
    const auto begin = static_cast<size_t>(match.start());
    const size_t end = begin + match.raw_string().size();
    if (end > text.size() || claims.any(begin, end)) continue;
    std::string e164;
    util.Format(match.number(), pn::PhoneNumberUtil::E164, &e164);
    FoundEntity phone;
    phone.type = EntityType::kPhone;
    phone.begin = begin;
    phone.end = end;
    phone.confidence = match.raw_string().starts_with('+') ? kInternationalConfidence : kConfidence;
    phone.fields["value"] = e164;
    found.push_back(std::move(phone));
  }
  return found;
}

}  // namespace opbase::ai::extract
