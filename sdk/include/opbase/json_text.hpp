// A fast, strict JSON validator: accepts exactly the texts nlohmann::json::accept(text) accepts
// (nlohmann 3.11.2, comments not allowed) except those holding a NUL byte (see below), without
// building anything and without allocating (only nesting deeper than 256 levels spills to the
// heap). The daemon checks every JSON text a plugin hands it; nlohmann's lexer costs ~100
// instructions a byte, this a few.
//
// nlohmann's rules, kept here on purpose so the two never disagree
// (tests/unit/sdk/json_text_test.cpp and tests/fuzz/json_text_fuzz.cpp check it):
// - one value, with optional " \t\n\r" around it; an empty or all-blank text is refused;
// - a UTF-8 BOM (EF BB BF) is skipped at the very start only (not after whitespace);
// - a NUL byte anywhere is refused. This is the one deliberate difference: nlohmann takes a NUL
//   where a token could start as the end of the text and accepts "{} \0 junk", but the host
//   copies a valid text into its responses as it is, junk included;
// - strings: UTF-8 per RFC 3629 (no overlongs, no encoded surrogates, nothing above U+10FFFF),
//   no raw byte below 0x20, escapes \" \\ \/ \b \f \n \r \t \uXXXX, where a high surrogate must be
//   followed at once by a low one and a low one alone is refused;
// - numbers: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and refused when strtod would make
//   them infinite (|value| >= 2^1024 - 2^970, e.g. 1e309); underflow to 0 is fine.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::json_text {

// True if `text` is one complete JSON value, by the rules above.
bool is_valid(std::string_view text) noexcept;

// True if `text` is valid and its first character other than " \t\n\r" is '{' (so a text that
// starts with a BOM is not an object).
bool is_object(std::string_view text) noexcept;

// The value of the member `name` of the object `text`, as that value's raw JSON text (for
// {"sub":"u1", "n": [1, 2] } and "n": a view of "[1, 2]" inside `text`, no blanks around it), or
// nullopt if `text` is not valid by the rules above, is not an object (unlike is_object, a BOM
// before it is fine, as in nlohmann::json::parse), or has no member `name` at its top level
// (members of nested objects are not looked at). Keys are compared decoded, as nlohmann compares
// them ("\u0073ub" is the key sub), and when a key appears more than once the last one counts, as
// in nlohmann::json::parse. Costs about what is_valid costs, as the whole text is validated, and
// allocates no more. The gateway takes "sub" from a token verifier's claims this way.
std::optional<std::string_view> top_level_member(std::string_view text,
                                                 std::string_view name) noexcept;

// Several members in one pass, for the cost of one top_level_member call: found[i] is what
// top_level_member(text, names[i]) returns (`found` is as long as `names`). False, with every
// found[i] empty, if `text` is not valid or not an object.
bool top_level_members(std::string_view text, std::span<const std::string_view> names,
                       std::span<std::optional<std::string_view>> found) noexcept;

// The string the JSON string `text` holds, decoded as nlohmann decodes it (escapes, surrogate
// pairs), or nullopt if `text` is anything but exactly one valid JSON string (no blanks around
// it): what a top_level_member or array_items view holds, read without a parser.
std::optional<std::string> string_value(std::string_view text);

// The elements of the array `text`, each as its raw JSON text (for [ 1, {"a":2} ]: views of "1"
// and "{"a":2}" inside `text`, no blanks around them), or nullopt if `text` is not valid by the
// rules above or is not an array (a BOM before it is fine, as in nlohmann::json::parse). Costs
// about what is_valid costs, plus the vector. A store.find answer's documents are split this way
// by a reader that takes a few members of each rather than parsing every document.
std::optional<std::vector<std::string_view>> array_items(std::string_view text);

}  // namespace opbase::json_text
