// json_text::is_valid / is_object against nlohmann::json::accept: every case of the table is
// asserted against both, so the table documents that they agree (and what nlohmann 3.11.2 does
// at the edges: BOM, NUL, surrogates, overflow), then a seeded differential run on mutated texts.
#include "opbase/json_text.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::json_text {
namespace {

using namespace std::literals;

struct Case {
  std::string text;
  bool valid;
};

// A printable form of a case for failure messages: non-printable bytes as \xNN.
std::string shown(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text.substr(0, 200)) {
    const auto b = static_cast<unsigned char>(ch);
    if (b >= 0x20 && b < 0x7F) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return text.size() > 200 ? out + "... (" + std::to_string(text.size()) + " bytes)" : out;
}

// What the validator must say: nlohmann's verdict, except that a NUL byte anywhere is refused
// (json_text.hpp says why).
bool reference_accept(std::string_view text) {
  return nlohmann::json::accept(text) && text.find('\0') == std::string_view::npos;
}

bool nlohmann_object(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\n\r");
  return reference_accept(text) && first != std::string_view::npos && text[first] == '{';
}

void expect_table(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE("text: " + shown(c.text));
    EXPECT_EQ(reference_accept(c.text), c.valid) << "the table is wrong about nlohmann";
    EXPECT_EQ(is_valid(c.text), c.valid);
    EXPECT_EQ(is_object(c.text), nlohmann_object(c.text));
  }
}

// The digits of 2^1024 - 2^970: from there on strtod rounds to infinity.
const std::string kOverflow =
    "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797"
    "75872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548"
    "45817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711"
    "559699508093042880177904174497792";
const std::string kJustBelowOverflow = kOverflow.substr(0, kOverflow.size() - 1) + "1";

TEST(JsonText, Structure) {
  expect_table({
      {"{}", true},
      {"[]", true},
      {R"({"a":1,"b":[true,false,null],"c":{"d":"e"}})", true},
      {R"([1,"two",[3,[4,[]]],{}])", true},
      {R"({"a":1,"a":2})", true},  // duplicate keys are allowed
      {"[1,]", false},
      {"[,1]", false},
      {"[,]", false},
      {"{,}", false},
      {R"({"a":1,})", false},
      {R"({"a"})", false},
      {R"({"a":})", false},
      {R"({"a" 1})", false},
      {R"({"a"::1})", false},
      {"{1:2}", false},
      {"{a:1}", false},
      {"{'a':1}", false},
      {"[1 2]", false},
      {"[1:2]", false},
      {"[", false},
      {"]", false},
      {"{", false},
      {"}", false},
      {"[}", false},
      {"{]", false},
      {"[[]", false},
      {"[]]", false},
      {"[][]", false},
      {"{}{}", false},
      {"1 2", false},
      {R"("a" "b")", false},
      {"[1]/*c*/", false},  // no comments
      {"// c\n1", false},
  });
}

TEST(JsonText, Whitespace) {
  expect_table({
      {"", false},
      {" \t\n\r", false},
      {" \t\n\r1 \t\n\r", true},
      {"[ 1 , 2 ]", true},
      {"{ \"a\" : 1 , \"b\" : 2 }", true},
      {"\n{\n}\n", true},
      {"1\v", false},
      {"\f1", false},
      {"1\xC2\xA0", false},  // no-break space is not blank
      {"[1\x0B]", false},
  });
}

TEST(JsonText, ByteOrderMarkOnlyAtTheVeryStart) {
  expect_table({
      {"\xEF\xBB\xBF{}", true},
      {"\xEF\xBB\xBF \t{}", true},
      {"\xEF\xBB\xBF[1]", true},
      {"\xEF\xBB\xBF", false},
      {"\xEF\xBB\xBF ", false},
      {" \xEF\xBB\xBF{}", false},
      {"\xEF\xBB\xBF\xEF\xBB\xBF{}", false},
      {"\xEF\xBB{}", false},
      {"\xEF{}", false},
      {"{}\xEF\xBB\xBF", false},
      {"[\xEF\xBB\xBF]", false},
  });
  // A BOM hides the '{' from is_object, as it always did in answers::is_json_object.
  EXPECT_TRUE(is_valid("\xEF\xBB\xBF{}"));
  EXPECT_FALSE(is_object("\xEF\xBB\xBF{}"));
}

TEST(JsonText, NulIsRefusedEvenWhereNlohmannEndsTheText) {
  // nlohmann stops at a NUL where a token could start and accepts what came before it...
  for (const std::string& text : {"{}\0"s, "{} \0 junk ]]"s, "1\0x"s, "\"a\"\0\xFF"s}) {
    SCOPED_TRACE("text: " + shown(text));
    EXPECT_TRUE(nlohmann::json::accept(text));
    EXPECT_FALSE(is_valid(text));  // ...the validator does not: the junk would reach responses
    EXPECT_FALSE(is_object(text));
  }
  expect_table({
      {"{}\0"s, false},
      {"{} \0 junk ]]"s, false},
      {"1\0x"s, false},
      {"\"a\"\0\xFF"s, false},
      {"\0"s, false},
      {"\0{}"s, false},
      {" \0"s, false},
      {"\xEF\xBB\xBF\0"s, false},
      {"[\0]"s, false},
      {"[1\0]"s, false},
      {"[1,\0]"s, false},
      {"{\"a\":\0}"s, false},
      {"\"a\0\""s, false},  // inside a string it is a control character
      {"tr\0ue"s, false},
      {"1.\0"s, false},
      {"-\0"s, false},
  });
}

TEST(JsonText, Literals) {
  expect_table({
      {"true", true},
      {"false", true},
      {"null", true},
      {" null ", true},
      {"[true,false,null]", true},
      {"tru", false},
      {"nul", false},
      {"fals", false},
      {"truex", false},
      {"nulll", false},
      {"truefalse", false},
      {"True", false},
      {"NULL", false},
      {"nan", false},
      {"NaN", false},
      {"Infinity", false},
      {"-Infinity", false},
      {"undefined", false},
  });
}

TEST(JsonText, NumberGrammar) {
  expect_table({
      {"0", true},      {"-0", true},       {"123", true},      {"-123", true},  {"1.5", true},
      {"-0.0", true},   {"0.000001", true}, {"1e5", true},      {"1E5", true},   {"1e+5", true},
      {"1e-5", true},   {"0e0", true},      {"1.5E-005", true}, {"01", false},   {"00", false},
      {"-01", false},   {"0.", false},      {"1.", false},      {".5", false},   {"-.5", false},
      {"1.e5", false},  {"1e", false},      {"1e+", false},     {"1e-", false},  {"1e+-5", false},
      {"1e5.5", false}, {"1.5.5", false},   {"-", false},       {"--1", false},  {"+1", false},
      {"0x10", false},  {"1_000", false},   {"1,5", false},     {"[1.]", false}, {"[-]", false},
  });
}

TEST(JsonText, NumbersThatOverflowADoubleAreRefused) {
  expect_table({
      {"18446744073709551615", true},
      {"18446744073709551616", true},  // too big for uint64: parsed as a double
      {"-9223372036854775809", true},
      {"1e308", true},
      {"1e309", false},
      {"-1e309", false},
      {"1e400", false},
      {"[1,{\"a\":1e400}]", false},
      {"10e307", true},
      {"100e307", false},
      {"0.1e309", true},
      {"1.7976931348623157e308", true},
      {"1.7976931348623158e308", true},  // rounds down to DBL_MAX
      {"1.7976931348623159e308", false},
      {"-1.7976931348623159e308", false},
      {kJustBelowOverflow, true},
      {kOverflow, false},  // exactly halfway: ties to even, which is 2^1024
      {"-" + kOverflow, false},
      {kOverflow.substr(0, 1) + "." + kOverflow.substr(1) + "e308", false},
      {kJustBelowOverflow.substr(0, 1) + "." + kJustBelowOverflow.substr(1) + "e308", true},
      {kOverflow + "e-0", false},
      {kJustBelowOverflow + ".999999999999", true},
      {kOverflow + ".0000", false},
      {"0." + kOverflow + "e309", false},
      {"0.000" + kJustBelowOverflow + "e312", true},
      {"0.000" + kOverflow + "e312", false},
      {kOverflow + "e-1", true},
      {std::string(400, '9'), false},
      {std::string(400, '9') + "e-100", true},
      {"1" + std::string(308, '0'), true},
      {"1" + std::string(309, '0'), false},
      {"0." + std::string(400, '0') + "1e700", true},
      {"0." + std::string(400, '0') + "1e800", false},
      {"0e99999999999999999999999", true},  // zero stays zero
      {"0.000e99999999999999999999999", true},
      {"1e99999999999999999999999", false},
      {"1e-99999999999999999999999", true},  // underflow to zero is fine
      {"1e-400", true},
      {"1e000000000000000000000308", true},
      {"1e000000000000000000000309", false},
  });
}

TEST(JsonText, Strings) {
  expect_table({
      {R"("")", true},
      {R"("abc")", true},
      {R"("\"\\\/\b\f\n\r\t")", true},
      {R"("\u0000")", true},
      {R"("\uabcd\uABCD\u00e9")", true},
      {R"("a)", false},
      {R"(")", false},
      {R"("\")", false},
      {R"("\x41")", false},
      {R"("\a")", false},
      {R"("\U0041")", false},
      {R"("\'")", false},
      {R"("\u12")", false},
      {R"("\u12G4")", false},
      {R"("\u")", false},
      {"\"\x01\"", false},
      {"\"\x1F\"", false},
      {"\"\t\"", false},
      {"\"\n\"", false},
      {"\"\x7F\"", true},  // DEL is not a control character to JSON
      {"'a'", false},
  });
}

TEST(JsonText, SurrogateEscapesMustPair) {
  expect_table({
      {R"("\ud83d\ude00")", true},
      {R"("\uD800\uDC00")", true},
      {R"("\uDBFF\uDFFF")", true},
      {R"("\uD7FF\uE000")", true},
      {R"("\ud83d")", false},
      {R"("\ude00")", false},
      {R"("\ude00\ud83d")", false},
      {R"("\ud83d\u0041")", false},
      {R"("\ud83d\ud83d")", false},
      {R"("\ud83dx")", false},
      {R"("\ud83d\n")", false},
      {R"("\ud83d\u")", false},
      {R"("\ud83d\ude0")", false},
      {"\"\\ud83d\xED\xB8\x80\"", false},  // the low half raw in UTF-8: refused twice over
  });
}

TEST(JsonText, Utf8InStrings) {
  expect_table({
      {"\"\xC3\xA9\"", true},                  // é
      {"\"\xE6\x97\xA5\xE6\x9C\xAC\"", true},  // 日本
      {"\"\xF0\x9F\x98\x80\"", true},          // 😀
      {"\"\xC2\x80\"", true},
      {"\"\xDF\xBF\"", true},
      {"\"\xE0\xA0\x80\"", true},
      {"\"\xED\x9F\xBF\"", true},  // U+D7FF
      {"\"\xEE\x80\x80\"", true},  // U+E000
      {"\"\xEF\xBF\xBF\"", true},
      {"\"\xF0\x90\x80\x80\"", true},
      {"\"\xF4\x8F\xBF\xBF\"", true},  // U+10FFFF
      {"\"\x80\"", false},
      {"\"\xBF\"", false},
      {"\"\xC0\x80\"", false},  // overlong NUL
      {"\"\xC1\xBF\"", false},
      {"\"\xE0\x80\x80\"", false},
      {"\"\xE0\x9F\xBF\"", false},
      {"\"\xED\xA0\x80\"", false},  // an encoded surrogate
      {"\"\xED\xBF\xBF\"", false},
      {"\"\xF0\x80\x80\x80\"", false},
      {"\"\xF0\x8F\xBF\xBF\"", false},
      {"\"\xF4\x90\x80\x80\"", false},  // above U+10FFFF
      {"\"\xF5\x80\x80\x80\"", false},
      {"\"\xF8\x88\x80\x80\x80\"", false},
      {"\"\xFE\"", false},
      {"\"\xFF\"", false},
      {"\"\xC3\"", false},
      {"\"\xC3", false},
      {"\"\xC3\x28\"", false},
      {"\"\xE2\x82\"", false},
      {"\"\xE2\x82\x28\"", false},
      {"\"\xF0\x9F\x98\"", false},
      {"\"\xF0\x9F\x98\x28\"", false},
      {"\xC3\xA9", false},  // outside a string
      {"[\"a\"\xC3\xA9]", false},
  });
}

// Strings long enough for the 8-byte fast path, with the interesting byte at every offset.
TEST(JsonText, LongStringsAtEveryAlignment) {
  for (std::size_t at = 0; at < 40; ++at) {
    for (const std::string stop : {"\"", "\\n", "\\u00e9", "\x01", "\x7F", "\xC3\xA9", "\xC3",
                                   "\xFF", "\\", "\\ud83d\\ude00"}) {
      const std::string text = "[\"" + std::string(at, 'x') + stop + std::string(40, 'y') + "\"]";
      SCOPED_TRACE("text: " + shown(text));
      EXPECT_EQ(is_valid(text), reference_accept(text));
      const std::string truncated = text.substr(0, 2 + at + stop.size());
      EXPECT_EQ(is_valid(truncated), reference_accept(truncated));
    }
  }
}

TEST(JsonText, NestingDepthIsUnbounded) {
  for (const std::size_t depth : {1, 63, 64, 65, 255, 256, 257, 1000, 100000}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    std::string arrays = std::string(depth, '[') + std::string(depth, ']');
    EXPECT_TRUE(is_valid(arrays));
    std::string objects;
    for (std::size_t i = 0; i < depth; ++i) objects += "{\"k\":[";
    objects += "1";
    for (std::size_t i = 0; i < depth; ++i) objects += "]}";
    EXPECT_TRUE(is_valid(objects));
    EXPECT_TRUE(is_object(objects));
    // The wrong bracket at the deepest level, or one too few, is still noticed.
    std::string mismatched = objects;
    mismatched[mismatched.size() - 2] = '}';
    EXPECT_FALSE(is_valid(mismatched));
    EXPECT_FALSE(is_valid(arrays.substr(1)));
    EXPECT_FALSE(is_valid(arrays.substr(0, arrays.size() - 1)));
    if (depth <= 1000) {  // nlohmann agrees (it is slow on the deepest)
      EXPECT_TRUE(nlohmann::json::accept(objects));
      EXPECT_FALSE(nlohmann::json::accept(mismatched));
    }
  }
}

TEST(JsonText, IsObject) {
  EXPECT_TRUE(is_object("{}"));
  EXPECT_TRUE(is_object(" \n{\"a\":[1]} "));
  EXPECT_FALSE(is_object("[]"));
  EXPECT_FALSE(is_object("\"{}\""));
  EXPECT_FALSE(is_object("{"));
  EXPECT_FALSE(is_object("{}}"));
  EXPECT_FALSE(is_object(""));
  EXPECT_FALSE(is_object("   "));
}

// ---------------------------------------------------------------------------------------------
// top_level_member: the raw text of a member's value, checked against nlohmann where it matters.

// top_level_member's answer as a string, or "(none)" for nullopt, for readable failures.
std::string member(std::string_view text, std::string_view name) {
  const std::optional<std::string_view> value = top_level_member(text, name);
  return value ? std::string(*value) : "(none)";
}

// top_level_member against nlohmann: the value when nlohmann (NUL aside) parses `text` to an
// object with that member, nothing otherwise. The view must be inside `text`, without blanks
// around, and parse to the very value nlohmann has.
void expect_member_agrees(std::string_view text, const std::string& name) {
  std::optional<nlohmann::json> expected;
  if (reference_accept(text)) {
    const nlohmann::json doc = nlohmann::json::parse(text);
    if (doc.is_object() && doc.contains(name)) expected = doc[name];
  }
  const std::optional<std::string_view> value = top_level_member(text, name);
  ASSERT_EQ(value.has_value(), expected.has_value())
      << "text: " << shown(text) << ", name: " << shown(name);
  if (!value) return;
  ASSERT_TRUE(value->data() >= text.data() && value->data() + value->size() <= text.end());
  ASSERT_FALSE(value->empty());
  constexpr std::string_view kBlanks = " \t\n\r";
  ASSERT_EQ(kBlanks.find(value->front()), std::string_view::npos) << "a blank before the value";
  ASSERT_EQ(kBlanks.find(value->back()), std::string_view::npos) << "a blank after the value";
  ASSERT_EQ(nlohmann::json::parse(*value), *expected) << "text: " << shown(text);
}

TEST(JsonTextMember, ValueIsItsRawTextWithoutTheBlanksAround) {
  const std::string text = R"({ "sub" : "u1" , "n":	-1.5e3 ,"o": {"a" : [1, 2]} ,)"
                           "\n"
                           R"( "l" :[ 1 , "x" ] , "t":true,"z":null})";
  EXPECT_EQ(member(text, "sub"), R"("u1")");
  EXPECT_EQ(member(text, "n"), "-1.5e3");
  EXPECT_EQ(member(text, "o"), R"({"a" : [1, 2]})");
  EXPECT_EQ(member(text, "l"), R"([ 1 , "x" ])");
  EXPECT_EQ(member(text, "t"), "true");
  EXPECT_EQ(member(text, "z"), "null");
  EXPECT_EQ(member(R"({"sub":"u1","n":[1, 2]})", "n"), "[1, 2]");
  EXPECT_EQ(member("{\"e\":{},\"a\":[]}", "e"), "{}");
  EXPECT_EQ(member("{\"e\":{},\"a\":[]}", "a"), "[]");
  EXPECT_EQ(member(R"({"s":"a\"b\\"})", "s"), R"("a\"b\\")");
  EXPECT_EQ(member("\xEF\xBB\xBF {\"a\":1} \n", "a"), "1");  // a BOM, as nlohmann::json::parse
}

TEST(JsonTextMember, TheViewPointsIntoTheText) {
  const std::string_view text = R"({"a":1,"sub":"u1"})";
  const std::optional<std::string_view> value = top_level_member(text, "sub");
  ASSERT_TRUE(value);
  EXPECT_EQ(value->data(), text.data() + 13);
  EXPECT_EQ(value->size(), 4U);
}

TEST(JsonTextMember, OnlyTopLevelMembersAreLookedAt) {
  const std::string_view text = R"({"a":{"sub":"nested"},"l":[{"sub":1}],"b":"sub"})";
  EXPECT_EQ(member(text, "sub"), "(none)");
  EXPECT_EQ(member(text, "missing"), "(none)");
  EXPECT_EQ(member(text, "b"), R"("sub")");
  EXPECT_EQ(member("{}", "sub"), "(none)");
  EXPECT_EQ(member("{ }", ""), "(none)");
}

TEST(JsonTextMember, KeysAreComparedDecoded) {
  EXPECT_EQ(member(R"({"\u0073ub":"x"})", "sub"), R"("x")");
  EXPECT_EQ(member(R"({"\u0073ub":"x"})", "\\u0073ub"), "(none)");
  EXPECT_EQ(member(R"({"a\"b\\c\/d\b\f\n\r\t":1})", "a\"b\\c/d\b\f\n\r\t"), "1");
  EXPECT_EQ(member(R"({"\u00e9\u65e5\ud83d\ude00":2})", "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80"),
            "2");
  EXPECT_EQ(member("{\"\xC3\xA9\":3}", "\xC3\xA9"), "3");  // raw UTF-8 needs no decoding
  EXPECT_EQ(member(R"({"\u0000":4})", "\0"sv), "4");
  EXPECT_EQ(member(R"({"\u0000":4})", ""), "(none)");
  EXPECT_EQ(member(R"({"su\u0062x":5})", "sub"), "(none)");  // a longer key
  EXPECT_EQ(member(R"({"s\n":6})", "s"), "(none)");          // a shorter name
  EXPECT_EQ(member(R"({"s":7})", "s\n"), "(none)");
}

TEST(JsonTextMember, TheLastDuplicateCountsAsInNlohmann) {
  const std::string_view text = R"({"sub":"first","x":0,"\u0073ub":"last"})";
  EXPECT_EQ(member(text, "sub"), R"("last")");
  EXPECT_EQ(nlohmann::json::parse(text)["sub"], "last");
  EXPECT_EQ(member(R"({"a":[1],"a":{"b":2}})", "a"), R"({"b":2})");
}

TEST(JsonTextMember, AgreesWithNlohmannOnTheExamples) {
  for (const std::string_view text : {
           R"({"sub":"u1","n":[1, 2]})"sv,
           R"({"\u0073ub":"x","sub":{"a":[]},"":0})"sv,
           "\xEF\xBB\xBF {\"sub\" : -0.5e-3 }\n"sv,
           R"({"a":{"sub":1}})"sv,
           R"(["sub"])"sv,
       }) {
    for (const std::string name : {"sub", "a", "", "n"}) expect_member_agrees(text, name);
  }
}

// top_level_members returns for each name what top_level_member returns for it alone.
void expect_members_agree(std::string_view text, const std::vector<std::string_view>& names) {
  std::vector<std::optional<std::string_view>> found(names.size(), "stale"sv);
  const bool read = top_level_members(text, names, found);
  EXPECT_EQ(read, reference_accept(text) && nlohmann::json::parse(text).is_object())
      << "text: " << shown(text);
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(found[i], top_level_member(text, names[i]))
        << "text: " << shown(text) << ", name: " << shown(names[i]);
  }
}

TEST(JsonTextMember, SeveralMembersInOnePassAnswerAsOneByOne) {
  const std::vector<std::string_view> names = {"sub", "a", "sub", "", "missing"};
  for (const std::string_view text : {
           R"({"sub":"u1","a":[1, 2],"":0})"sv,
           R"({"\u0073ub":"x","sub":{"a":[]},"a":1,"a":2})"sv,
           R"({"a":{"sub":1}})"sv,
           R"({"sub":"u1")"sv,
           R"(["sub"])"sv,
           ""sv,
       }) {
    ASSERT_NO_FATAL_FAILURE(expect_members_agree(text, names));
  }
  EXPECT_TRUE(top_level_members(R"({"a":1})", {}, {}));  // no names: only checks the text
  EXPECT_FALSE(top_level_members(R"({"a":1)", {}, {}));
}

TEST(JsonTextMember, EmptyNameMatchesTheEmptyKey) {
  EXPECT_EQ(member(R"({"":1,"a":2})", ""), "1");
  EXPECT_EQ(member(R"({"a":2})", ""), "(none)");
}

TEST(JsonTextMember, InvalidTextsAndNonObjectsGiveNothing) {
  for (const std::string& text : {
           R"({"sub":"u1")"s,
           R"({"sub":"u1)"s,
           R"({"sub":)"s,
           R"({"sub")"s,
           R"({"sub":"u1"} x)"s,
           R"({"sub":"u1"}})"s,
           R"({"sub":"u1",})"s,
           R"({"sub":"u1" "a":1})"s,
           R"({"sub":"u1","a":[1,}})"s,
           R"({"sub":"u1","a":1e400})"s,  // overflow after the member was found
           R"({"sub":"\ud83d"})"s,
           "{\"sub\":\"u1\"}\0"s,  // nlohmann::json::accept takes this one
           "{\"sub\":\"u\0\"}"s,
           "{\"s\0\":1,\"sub\":\"u1\"}"s,
           " \xEF\xBB\xBF{\"sub\":\"u1\"}"s,
           R"(["sub","u1"])"s,
           R"("sub")"s,
           "1"s,
           "null"s,
           ""s,
           "   "s,
       }) {
    SCOPED_TRACE("text: " + shown(text));
    EXPECT_EQ(member(text, "sub"), "(none)");
  }
}

// ---------------------------------------------------------------------------------------------
// array_items

// array_items must give what nlohmann::json::parse finds in an array: as many elements, each the
// raw text of the element at its place (parsed again, equal), without blanks around it.
void expect_items_agree(std::string_view text) {
  const std::optional<std::vector<std::string_view>> items = array_items(text);
  const bool array = reference_accept(text) && nlohmann::json::parse(text).is_array();
  ASSERT_EQ(items.has_value(), array) << "text: " << shown(text);
  if (!items) return;
  const nlohmann::json parsed = nlohmann::json::parse(text);
  ASSERT_EQ(items->size(), parsed.size()) << "text: " << shown(text);
  constexpr std::string_view kBlanks = " \t\n\r";
  for (std::size_t i = 0; i < items->size(); ++i) {
    const std::string_view item = (*items)[i];
    ASSERT_TRUE(item.data() >= text.data() && item.data() + item.size() <= text.end());
    ASSERT_FALSE(item.empty());
    ASSERT_EQ(kBlanks.find(item.front()), std::string_view::npos) << "a blank before an item";
    ASSERT_EQ(kBlanks.find(item.back()), std::string_view::npos) << "a blank after an item";
    ASSERT_EQ(nlohmann::json::parse(item), parsed[i]) << "text: " << shown(text);
  }
}

TEST(JsonTextItems, EachElementIsItsRawText) {
  const auto items = array_items(R"( [ 1 , {"a" : [2, 3]},"x",[ ] ,null,	-2.5e1 ] )");
  ASSERT_TRUE(items);
  EXPECT_EQ(*items, (std::vector<std::string_view>{"1", R"({"a" : [2, 3]})", R"("x")", "[ ]",
                                                   "null", "-2.5e1"}));
  EXPECT_EQ(array_items("[]"), std::vector<std::string_view>{});
  EXPECT_EQ(array_items("\xEF\xBB\xBF[ ]\n"), std::vector<std::string_view>{});
  EXPECT_EQ(array_items(R"(["a,b]","c"])"), (std::vector<std::string_view>{R"("a,b]")", R"("c")"}));
}

TEST(JsonTextItems, InvalidTextsAndNonArraysGiveNothing) {
  for (const std::string& text : {
           "[1,]"s,
           "[1"s,
           "[1 2]"s,
           "[,1]"s,
           "[1]]"s,
           "[1] x"s,
           "[1e400]"s,
           "[\"\\ud83d\"]"s,
           "[1]\0"s,
           " \xEF\xBB\xBF[1]"s,
           R"({"a":[1]})"s,
           "1"s,
           R"("[1]")"s,
           ""s,
           "  "s,
       }) {
    SCOPED_TRACE("text: " + shown(text));
    EXPECT_FALSE(array_items(text));
    ASSERT_NO_FATAL_FAILURE(expect_items_agree(text));
  }
}

TEST(JsonTextItems, AgreesWithNlohmannOnTheExamples) {
  for (const std::string_view text : {
           R"([{"_key":"k1","n":[1,{"b":[]}]},{"_key":"k2"}])"sv,
           "[[[]],[{}],\"\\u00e9\",0.5,true,false,null]"sv,
           "[ \"\xC3\xA9\" , -0 ]"sv,
       }) {
    ASSERT_NO_FATAL_FAILURE(expect_items_agree(text));
  }
}

// ---------------------------------------------------------------------------------------------
// string_value

// string_value gives what nlohmann decodes when `text` is exactly one JSON string, else nothing.
void expect_string_agrees(std::string_view text) {
  std::optional<std::string> expected;
  if (reference_accept(text) && !text.empty() && text.front() == '"' && text.back() == '"') {
    expected = nlohmann::json::parse(text).get<std::string>();
  }
  EXPECT_EQ(string_value(text), expected) << "text: " << shown(text);
}

TEST(JsonTextString, DecodesWhatNlohmannDecodes) {
  EXPECT_EQ(string_value(R"("plain")"), "plain");
  EXPECT_EQ(string_value(R"("")"), "");
  EXPECT_EQ(string_value(R"("a\"b\\c\/d\b\f\n\r\t")"), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(string_value(R"("\u00e9\u65e5\ud83d\ude00")"), "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80");
  EXPECT_EQ(string_value(R"("\u0000x")"), "\0x"s);
  for (const std::string_view text : {
           R"("a\"b")"sv,
           "\"\xC3\xA9\""sv,
           R"("\ud83d\ude00 \u0041")"sv,
       }) {
    ASSERT_NO_FATAL_FAILURE(expect_string_agrees(text));
  }
}

TEST(JsonTextString, AnythingButOneValidStringGivesNothing) {
  for (const std::string_view text : {
           R"( "a")"sv,
           R"("a" )"sv,
           R"("a)"sv,
           R"("\ud83d")"sv,
           R"("\x")"sv,
           "\"\x01\""sv,
           "\"\xC3\""sv,
           R"("a""b")"sv,
           "1"sv,
           "null"sv,
           R"(["a"])"sv,
           ""sv,
           "\""sv,
       }) {
    EXPECT_FALSE(string_value(text)) << "text: " << shown(text);
    ASSERT_NO_FATAL_FAILURE(expect_string_agrees(text));
  }
}

// ---------------------------------------------------------------------------------------------
// Differential: seed documents mutated at random (fixed seed), every result compared.

const std::vector<std::string>& seeds() {
  static const std::vector<std::string> docs = {
      R"({"items":[{"_key":"k1","name":"Lamp","price":25.5,"tags":["home","light"]},)"
      R"({"_key":"k2","name":"\u65e5\u672c\ud83d\ude00 \"q\"","price":-1e-3,"ok":true,"n":null}]})",
      "[0,-0,1.5e+10,-2E-2,18446744073709551616,1e308,\"\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80\"]",
      "\xEF\xBB\xBF {\"a\" : [ [ ] , { } , \"\\n\\t\\/\" ] }\n",
      "\"a longer string with no escapes at all, for the fast path of the scanner\"",
      "[true,false,null,{\"deep\":[[[[{\"x\":[]}]]]]}]",
      R"({"iss":"opbase","sub":"u1","a":[1,{"sub":2}],"\u0073ub":"u2","":{"a":0}, "exp":17e8})",
  };
  return docs;
}

// Bytes a mutation inserts or writes: the ones JSON's grammar turns on, and UTF-8 edges.
unsigned char interesting_byte(std::mt19937& rng) {
  static constexpr std::string_view kBytes =
      "{}[]:,\"\\/ubfnrtUe.E+-0123456789 \t\n\r\0\x01\x1F\x7F\x80\xBF\xC0\xC2\xDF\xE0\xED\xEF"
      "\xBB\xF0\xF4\xF5\xFF"
      "axdD"sv;
  std::uniform_int_distribution<int> any(0, 3);
  if (any(rng) == 0)
    return static_cast<unsigned char>(std::uniform_int_distribution<int>(0, 255)(rng));
  return static_cast<unsigned char>(
      kBytes[std::uniform_int_distribution<std::size_t>(0, kBytes.size() - 1)(rng)]);
}

void mutate(std::string& text, std::mt19937& rng) {
  const auto position = [&](std::size_t size) {
    return std::uniform_int_distribution<std::size_t>(0, size)(rng);
  };
  switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0:  // overwrite a byte
      if (!text.empty()) text[position(text.size() - 1)] = static_cast<char>(interesting_byte(rng));
      break;
    case 1:  // insert a byte
      text.insert(position(text.size()), 1, static_cast<char>(interesting_byte(rng)));
      break;
    case 2:  // delete a byte
      if (!text.empty()) text.erase(position(text.size() - 1), 1);
      break;
    case 3:  // truncate
      text.resize(position(text.size()));
      break;
    default: {  // duplicate a slice somewhere else
      const std::size_t from = position(text.size());
      const std::string slice = text.substr(from, position(16));
      text.insert(position(text.size()), slice);
    }
  }
}

TEST(JsonText, AgreesWithNlohmannOnMutatedTexts) {
  std::mt19937 rng(20240611);
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds()[static_cast<std::size_t>(round) % seeds().size()];
    const int mutations = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int i = 0; i < mutations; ++i) mutate(text, rng);
    const bool expected = reference_accept(text);
    ASSERT_EQ(is_valid(text), expected) << "text: " << shown(text);
    ASSERT_EQ(is_object(text), nlohmann_object(text)) << "text: " << shown(text);
    for (const std::string name : {"sub", "a", "items", ""}) {
      ASSERT_NO_FATAL_FAILURE(expect_member_agrees(text, name));
    }
    ASSERT_NO_FATAL_FAILURE(expect_items_agree(text));
    ASSERT_NO_FATAL_FAILURE(expect_members_agree(text, {"sub", "a", "items", ""}));
    ASSERT_NO_FATAL_FAILURE(expect_string_agrees(text));
    if (const auto sub = top_level_member(text, "sub")) {
      ASSERT_NO_FATAL_FAILURE(expect_string_agrees(*sub));
    }
    ++(expected ? accepted : rejected);
  }
  // Both outcomes must be well represented for the comparison to mean something.
  EXPECT_GT(accepted, 2000);
  EXPECT_GT(rejected, 2000);
}

}  // namespace
}  // namespace opbase::json_text
