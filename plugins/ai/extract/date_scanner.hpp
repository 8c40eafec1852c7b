// Dates: a hand-written scanner for
//   absolute dates, with a year: ISO "2024-03-15" (also with '/'), numeric "03/15/2024",
//     "15.03.2024", "3/15/24", and written "March 15, 2024", "Friday, March 15th 2024",
//     "15 March 2024", "15th of Mar. 2024";
//   partial dates, lacking a year or a day: "March 15", "Mar. 15", "15 March", "March 2024";
//   relative dates: today, tomorrow, yesterday, tonight, weekdays ("Friday", "next Friday",
//     "last Monday"), and "next/last/this week|month|year|weekend".
// Fields: "value", the ISO 8601 date "YYYY-MM-DD" when the text names a full date, else null
// (partial dates lack a part; relative ones would need a clock and a time zone, which this
// module does not have: the caller can resolve them), and "kind": "absolute", "partial" or
// "relative".
// Numeric dates: with '.' the day comes first (15.03.2024, the European way). With '/' or '-'
// the month comes first (03/15/2024, the US way) unless the first number cannot be a month
// (15/03/2024 is then day first). Two-digit years are 2000-2069 for 00-69, else 1970-1999.
// Month and weekday names must be capitalised ("may" is a verb); lone month names are not taken.
//
// Thread-safety: pure function.
#pragma once

#include <string_view>
#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> scan_dates(std::string_view text, const Claims& claims);

}  // namespace opbase::ai::extract
