// Amounts of money: a hand-written scanner for a currency symbol or ISO 4217 code before or
// after a number ("$5", "US$ 12", "€10", "10 €", "USD 5", "5 EUR"), or a currency word after it
// ("20 dollars", "300 euros"), with an optional multiplier ("$5 million", "$2.5bn", "$40k").
// Fields: "amount" (the number, multiplied out: "$5 million" -> 5000000) and "currency" (ISO
// 4217). "$" alone is USD and "¥" alone JPY; "pounds" is not read (it is also a weight).
//
// Thread-safety: pure function.
#pragma once

#include <string_view>
#include <vector>

#include "extract/claims.hpp"
#include "extract/found_entity.hpp"

namespace opbase::ai::extract {

std::vector<FoundEntity> scan_money(std::string_view text, const Claims& claims);

}  // namespace opbase::ai::extract
