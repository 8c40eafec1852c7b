// The headers of a file download (downloads/): the Range header read against a file's size
// (one range served, several or malformed ones ignored, numbers of any length, empty files),
// Content-Range, If-Range by strong comparison, the ETag and If-None-Match by weak comparison,
// Content-Disposition: inline only for types that run nothing, and a file name that can never
// break the header, and the served Content-Type: script and style types as plain text.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "downloads/byte_range.hpp"
#include "downloads/content_disposition.hpp"
#include "downloads/entity_tag.hpp"
#include "downloads/served_type.hpp"

namespace opbase::file {
namespace {

constexpr int64_t kSize = 1000;
const std::string kSha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

// The answer as text, so a failure shows all of it: "whole", "416" or "first-last".
std::string answer(std::optional<std::string_view> range, int64_t size = kSize) {
  const RangeAnswer read = read_byte_range(range, size);
  switch (read.kind) {
    case RangeKind::kWhole:
      return "whole";
    case RangeKind::kUnsatisfiable:
      return "416";
    case RangeKind::kPartial:
      return std::to_string(read.range.first) + "-" + std::to_string(read.range.last);
  }
  return "?";
}

bool has_line_break(std::string_view text) {
  return text.find_first_of("\r\n") != std::string_view::npos;
}

// --- Range ---

TEST(FileByteRange, NoHeaderIsTheWholeFile) {
  EXPECT_EQ(answer(std::nullopt), "whole");
  EXPECT_EQ(answer(std::nullopt, 0), "whole");
}

TEST(FileByteRange, AFirstAndLastByte) {
  EXPECT_EQ(answer("bytes=0-499"), "0-499");
  EXPECT_EQ(answer("bytes=500-999"), "500-999");
  EXPECT_EQ(answer("bytes=0-0"), "0-0");
  EXPECT_EQ(answer("bytes=999-999"), "999-999");
  EXPECT_EQ(answer("bytes=10-10"), "10-10");
}

TEST(FileByteRange, ALastBytePastTheEndIsClamped) {
  EXPECT_EQ(answer("bytes=0-1000"), "0-999");
  EXPECT_EQ(answer("bytes=900-5000"), "900-999");
  EXPECT_EQ(answer("bytes=999-1000000"), "999-999");
}

TEST(FileByteRange, AnOpenRangeRunsToTheEnd) {
  EXPECT_EQ(answer("bytes=0-"), "0-999");
  EXPECT_EQ(answer("bytes=400-"), "400-999");
  EXPECT_EQ(answer("bytes=999-"), "999-999");
}

TEST(FileByteRange, AFirstByteAtOrPastTheEndIsUnsatisfiable) {
  EXPECT_EQ(answer("bytes=1000-"), "416");
  EXPECT_EQ(answer("bytes=1000-2000"), "416");
  EXPECT_EQ(answer("bytes=5000-5001"), "416");
}

TEST(FileByteRange, ASuffixIsTheLastBytes) {
  EXPECT_EQ(answer("bytes=-1"), "999-999");
  EXPECT_EQ(answer("bytes=-500"), "500-999");
  EXPECT_EQ(answer("bytes=-999"), "1-999");
  EXPECT_EQ(answer("bytes=-1000"), "0-999");
}

TEST(FileByteRange, ASuffixLongerThanTheFileIsAllOfIt) {
  EXPECT_EQ(answer("bytes=-1001"), "0-999");
  EXPECT_EQ(answer("bytes=-99999999"), "0-999");
  EXPECT_EQ(answer("bytes=-5", 3), "0-2");
}

TEST(FileByteRange, AnEmptySuffixIsUnsatisfiable) {
  EXPECT_EQ(answer("bytes=-0"), "416");
  EXPECT_EQ(answer("bytes=-000"), "416");
}

TEST(FileByteRange, LeadingZerosAreJustDigits) {
  EXPECT_EQ(answer("bytes=0010-0020"), "10-20");
  EXPECT_EQ(answer("bytes=-0010"), "990-999");
}

TEST(FileByteRange, TheUnitIsCaseInsensitive) {
  EXPECT_EQ(answer("Bytes=1-2"), "1-2");
  EXPECT_EQ(answer("BYTES=1-2"), "1-2");
}

TEST(FileByteRange, AnotherUnitIsIgnored) {
  EXPECT_EQ(answer("items=0-5"), "whole");
  EXPECT_EQ(answer("none"), "whole");
  EXPECT_EQ(answer("byte=0-5"), "whole");
  EXPECT_EQ(answer("bytesx=0-5"), "whole");
  EXPECT_EQ(answer("=0-5"), "whole");
}

TEST(FileByteRange, SpacesAreAllowedAroundTheHeaderRangesAndCommas) {
  EXPECT_EQ(answer("  bytes=0-9  "), "0-9");
  EXPECT_EQ(answer("\tbytes=0-9\t"), "0-9");
  EXPECT_EQ(answer("bytes= 0-9"), "0-9");
  EXPECT_EQ(answer("bytes=0-9 ,"), "0-9");
  EXPECT_EQ(answer("bytes=, ,0-9, \t,"), "0-9");  // empty list elements do not count
}

TEST(FileByteRange, SpacesElsewhereMakeItMalformed) {
  EXPECT_EQ(answer("bytes =0-9"), "whole");
  EXPECT_EQ(answer("bytes = 0-9"), "whole");
  EXPECT_EQ(answer("bytes=0 -9"), "whole");
  EXPECT_EQ(answer("bytes=0- 9"), "whole");
  EXPECT_EQ(answer("bytes=- 5"), "whole");
  EXPECT_EQ(answer("bytes=1 2-20"), "whole");
}

TEST(FileByteRange, SeveralRangesAreIgnored) {
  EXPECT_EQ(answer("bytes=0-1,5-6"), "whole");
  EXPECT_EQ(answer("bytes=0-1, 5-6"), "whole");
  EXPECT_EQ(answer("bytes=0-1,0-1"), "whole");
  EXPECT_EQ(answer("bytes=-1,-2"), "whole");
  // Even when every one of them is past the end: the header as a whole is ignored.
  EXPECT_EQ(answer("bytes=5000-,6000-"), "whole");
  EXPECT_EQ(answer("bytes=0-1,garbage"), "whole");
}

TEST(FileByteRange, MalformedHeadersAreIgnored) {
  for (const char* header :
       {"",           "   ",           "bytes",        "bytes=",     "bytes= ",
        "bytes=,",    "bytes=-",       "bytes=--1",    "bytes=1",    "bytes=a-b",
        "bytes=1-b",  "bytes=a-1",     "bytes=1-2-3",  "bytes=+1-2", "bytes=1-+2",
        "bytes=-+2",  "bytes=0x10-20", "bytes=1.5-2",  "bytes=-1.5", "bytes==1-2",
        "bytes=1-2;", "bytes=\xff-1",  "bytes=1\r\n-2"}) {
    EXPECT_EQ(answer(header), "whole") << header;
  }
  EXPECT_EQ(answer(std::string_view("bytes=0-1\0", 10)), "whole");
}

TEST(FileByteRange, ALastByteBeforeTheFirstIsIgnored) {
  EXPECT_EQ(answer("bytes=5-4"), "whole");
  EXPECT_EQ(answer("bytes=999-0"), "whole");
  EXPECT_EQ(answer("bytes=2000-1000"), "whole");  // invalid before it is unsatisfiable
  EXPECT_EQ(answer("bytes=010-9"), "whole");
}

TEST(FileByteRange, HugeNumbersAreLargerThanAnyFile) {
  const std::string huge = "99999999999999999999999999999999";  // far past int64_t
  EXPECT_EQ(answer("bytes=" + huge + "-"), "416");
  EXPECT_EQ(answer("bytes=" + huge + "-" + huge), "416");
  EXPECT_EQ(answer("bytes=0-" + huge), "0-999");
  EXPECT_EQ(answer("bytes=-" + huge), "0-999");
  EXPECT_EQ(answer("bytes=5-" + huge + huge), "5-999");
  // Compared as numbers however long: the last before the first is still invalid.
  EXPECT_EQ(answer("bytes=" + huge + "1-" + huge), "whole");
  EXPECT_EQ(answer("bytes=000000000000000000000000000007-8"), "7-8");
}

TEST(FileByteRange, NumbersAtTheEdgeOfInt64) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(answer("bytes=9223372036854775807-"), "416");
  EXPECT_EQ(answer("bytes=9223372036854775808-"), "416");
  EXPECT_EQ(answer("bytes=0-9223372036854775807"), "0-999");
  EXPECT_EQ(answer("bytes=0-9223372036854775808"), "0-999");
  EXPECT_EQ(answer("bytes=-9223372036854775807"), "0-999");
  EXPECT_EQ(answer("bytes=-9223372036854775808"), "0-999");
  // A file of the largest size still has its last byte.
  EXPECT_EQ(answer("bytes=9223372036854775806-", kMax), "9223372036854775806-9223372036854775806");
  EXPECT_EQ(answer("bytes=9223372036854775807-", kMax), "416");
  EXPECT_EQ(answer("bytes=-1", kMax), "9223372036854775806-9223372036854775806");
  EXPECT_EQ(answer("bytes=-99999999999999999999", kMax), "0-9223372036854775806");
}

TEST(FileByteRange, AnEmptyFileHasNoRangeToSend) {
  EXPECT_EQ(answer("bytes=0-", 0), "416");
  EXPECT_EQ(answer("bytes=0-0", 0), "416");
  EXPECT_EQ(answer("bytes=0-99", 0), "416");
  EXPECT_EQ(answer("bytes=-0", 0), "416");
  // A suffix is the one form RFC 9110 calls satisfiable here: all of nothing, the whole file.
  EXPECT_EQ(answer("bytes=-1", 0), "whole");
  EXPECT_EQ(answer("bytes=-100", 0), "whole");
  // Ignored headers stay ignored.
  EXPECT_EQ(answer("bytes=0-1,2-3", 0), "whole");
  EXPECT_EQ(answer("items=0-", 0), "whole");
}

TEST(FileByteRange, AOneByteFile) {
  EXPECT_EQ(answer("bytes=0-", 1), "0-0");
  EXPECT_EQ(answer("bytes=0-5", 1), "0-0");
  EXPECT_EQ(answer("bytes=1-", 1), "416");
  EXPECT_EQ(answer("bytes=-1", 1), "0-0");
  EXPECT_EQ(answer("bytes=-2", 1), "0-0");
}

TEST(FileByteRange, ContentRangeOfAPartAndOfARefusal) {
  EXPECT_EQ(content_range({0, 499}, 1000), "bytes 0-499/1000");
  EXPECT_EQ(content_range({999, 999}, 1000), "bytes 999-999/1000");
  const RangeAnswer read = read_byte_range("bytes=-10", 1000);
  ASSERT_EQ(read.kind, RangeKind::kPartial);
  EXPECT_EQ(content_range(read.range, 1000), "bytes 990-999/1000");
  EXPECT_EQ(unsatisfied_content_range(1000), "bytes */1000");
  EXPECT_EQ(unsatisfied_content_range(0), "bytes */0");
  EXPECT_EQ(content_range({0, 9223372036854775806}, 9223372036854775807),
            "bytes 0-9223372036854775806/9223372036854775807");
}

// --- If-Range ---

TEST(FileIfRange, NoHeaderAllowsTheRange) {
  EXPECT_TRUE(if_range_allows(std::nullopt, entity_tag(kSha)));
}

TEST(FileIfRange, OnlyTheSameStrongTagAllowsIt) {
  const std::string etag = entity_tag(kSha);
  EXPECT_TRUE(if_range_allows(etag, etag));
  EXPECT_TRUE(if_range_allows(" " + etag + "\t", etag));
  EXPECT_FALSE(if_range_allows("W/" + etag, etag));  // weak: never by strong comparison
  EXPECT_FALSE(if_range_allows("\"other\"", etag));
  EXPECT_FALSE(if_range_allows(kSha, etag));  // unquoted
  EXPECT_FALSE(if_range_allows("\"" + kSha.substr(1) + "\"", etag));
  EXPECT_FALSE(if_range_allows(etag + ", " + etag, etag));  // one validator, not a list
  EXPECT_FALSE(if_range_allows("w/" + etag, etag));
  EXPECT_FALSE(if_range_allows("", etag));
  EXPECT_FALSE(if_range_allows("*", etag));
  EXPECT_FALSE(if_range_allows("\"abc\"", "W/\"abc\""));  // our tag weak: no strong match
}

TEST(FileIfRange, ADateNeverMatches) {
  const std::string etag = entity_tag(kSha);
  EXPECT_FALSE(if_range_allows("Sun, 06 Nov 1994 08:49:37 GMT", etag));
  EXPECT_FALSE(if_range_allows("Thu, 01 Jan 2099 00:00:00 GMT", etag));
}

// --- ETag and If-None-Match ---

TEST(FileEntityTag, IsTheQuotedDigest) {
  const std::string etag = entity_tag(kSha);
  EXPECT_EQ(etag, "\"" + kSha + "\"");
  const auto read = read_entity_tag(etag);  // views etag, which must outlive it
  ASSERT_TRUE(read.has_value());
  EXPECT_FALSE(read->weak);
  EXPECT_EQ(read->opaque, "\"" + kSha + "\"");
}

TEST(FileEntityTag, ReadsWeakAndStrongTagsOnly) {
  const auto weak = read_entity_tag("W/\"x\"");
  ASSERT_TRUE(weak.has_value());
  EXPECT_TRUE(weak->weak);
  EXPECT_EQ(weak->opaque, "\"x\"");
  const auto empty = read_entity_tag("\"\"");
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->opaque, "\"\"");
  EXPECT_TRUE(read_entity_tag("\"a,b\"").has_value());  // ',' is a tag character
  EXPECT_TRUE(read_entity_tag("\"\xc3\xa9\"").has_value());
  for (const char* bad :
       {"", "\"", "x", "\"x", "x\"", "W/", "W/x", "w/\"x\"", " \"x\"", "\"x\" ", "\"a\"b\"",
        "\"a b\"", "\"a\tb\"", "\"a\x7f\"", "W/W/\"x\"", "\"a\r\nb\""}) {
    EXPECT_FALSE(read_entity_tag(bad).has_value()) << bad;
  }
}

TEST(FileIfNoneMatch, AStarMatchesAnyFile) {
  const std::string etag = entity_tag(kSha);
  EXPECT_FALSE(none_match("*", etag));
  EXPECT_FALSE(none_match(" * ", etag));
  EXPECT_TRUE(none_match("*, " + etag, etag));  // not the grammar: ignored
}

TEST(FileIfNoneMatch, TheSameTagWeakOrStrongMatches) {
  const std::string etag = entity_tag(kSha);
  EXPECT_FALSE(none_match(etag, etag));
  EXPECT_FALSE(none_match("W/" + etag, etag));
  EXPECT_FALSE(none_match(etag, "W/" + etag));
  EXPECT_FALSE(none_match("\t" + etag + "  ", etag));
}

TEST(FileIfNoneMatch, ATagInAListMatches) {
  const std::string etag = entity_tag(kSha);
  EXPECT_FALSE(none_match("\"a\", " + etag, etag));
  EXPECT_FALSE(none_match("\"a\"," + etag + ",\"b\"", etag));
  EXPECT_FALSE(none_match("W/\"a\" ,\tW/" + etag, etag));
  EXPECT_FALSE(none_match(", ," + etag + ",,", etag));  // empty elements do not count
  EXPECT_FALSE(none_match("\"x,y\", \"a\"", "\"a\""));  // a comma inside a tag is no separator
  EXPECT_FALSE(none_match("\"x,y\"", "\"x,y\""));
}

TEST(FileIfNoneMatch, OtherTagsDoNotMatch) {
  const std::string etag = entity_tag(kSha);
  EXPECT_TRUE(none_match("\"a\"", etag));
  EXPECT_TRUE(none_match("\"a\", W/\"b\"", etag));
  EXPECT_TRUE(none_match("\"" + kSha.substr(0, 63) + "\"", etag));
  EXPECT_TRUE(none_match("\"" + kSha + "0\"", etag));
  EXPECT_TRUE(none_match("\"x\"", "\"x,y\""));
  EXPECT_TRUE(none_match("\"y\"", "\"x,y\""));
  EXPECT_TRUE(none_match("", etag));
  EXPECT_TRUE(none_match(" , ", etag));
}

TEST(FileIfNoneMatch, AMalformedHeaderIsIgnored) {
  const std::string etag = entity_tag(kSha);
  for (const std::string& header :
       {kSha, etag + " " + etag, etag + etag, etag + " x", "x, " + etag, etag + ", x", "w/" + etag,
        "\"" + kSha, etag + ", \"open", "W/ " + etag, std::string("**"), "* ," + etag}) {
    EXPECT_TRUE(none_match(header, etag)) << header;
  }
}

// --- Content-Disposition ---

TEST(FileContentDisposition, OnlyTypesThatRunNothingAreInline) {
  for (const char* type :
       {"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "audio/mpeg",
        "audio/ogg", "video/mp4", "video/webm", "text/plain", "application/pdf",
        "text/plain; charset=utf-8", "IMAGE/PNG", "Text/Plain;charset=UTF-8", " image/png "}) {
    EXPECT_TRUE(safe_inline(type)) << type;
  }
  for (const char* type : {"image/svg+xml",
                           "text/html",
                           "text/html; charset=utf-8",
                           "application/xhtml+xml",
                           "text/xml",
                           "application/xml",
                           "text/javascript",
                           "application/javascript",
                           "application/json",
                           "text/css",
                           "application/octet-stream",
                           "image/bmp",
                           "image/x-icon",
                           "application/x-shockwave-flash",
                           "multipart/x-mixed-replace",
                           "audio",
                           "audio/",
                           "video",
                           "audiox/mp4",
                           "image/pngx",
                           "ximage/png",
                           "text/plain2",
                           "application/pdf+xml",
                           "",
                           ";image/png",
                           "image/png2; x=image/png"}) {
    EXPECT_FALSE(safe_inline(type)) << type;
  }
}

TEST(FileContentDisposition, AnAsciiName) {
  EXPECT_EQ(content_disposition("report.pdf", "application/pdf"),
            "inline; filename=\"report.pdf\"; filename*=UTF-8''report.pdf");
  EXPECT_EQ(content_disposition("page.html", "text/html"),
            "attachment; filename=\"page.html\"; filename*=UTF-8''page.html");
  EXPECT_EQ(content_disposition("logo.svg", "image/svg+xml"),
            "attachment; filename=\"logo.svg\"; filename*=UTF-8''logo.svg");
}

TEST(FileContentDisposition, SpacesAndMarksArePercentEncodedInTheExactName) {
  EXPECT_EQ(content_disposition("my file (1);x=y,z.txt", "text/plain"),
            "inline; filename=\"my file (1);x=y,z.txt\"; "
            "filename*=UTF-8''my%20file%20%281%29%3Bx%3Dy%2Cz.txt");
  EXPECT_EQ(content_disposition("a!#$&+-.^_`|~b", "application/zip"),
            "attachment; filename=\"a!#$&+-.^_`|~b\"; filename*=UTF-8''a!#$&+-.^_`|~b");
  EXPECT_EQ(content_disposition("a'b*c", "application/zip"),
            "attachment; filename=\"a'b*c\"; filename*=UTF-8''a%27b%2Ac");
}

TEST(FileContentDisposition, QuotesAndPercentsAreReplacedInTheFallback) {
  EXPECT_EQ(content_disposition("say \"hi\".txt", "text/plain"),
            "inline; filename=\"say _hi_.txt\"; filename*=UTF-8''say%20%22hi%22.txt");
  EXPECT_EQ(content_disposition("100%.txt", "text/plain"),
            "inline; filename=\"100_.txt\"; filename*=UTF-8''100%25.txt");
  EXPECT_EQ(content_disposition("a%22b", "text/plain"),
            "inline; filename=\"a_22b\"; filename*=UTF-8''a%2522b");
  // '\' cannot reach us, but must not escape the closing quote if it did.
  EXPECT_EQ(content_disposition("a\\", "text/plain"),
            "inline; filename=\"a_\"; filename*=UTF-8''a%5C");
}

TEST(FileContentDisposition, ANonAsciiName) {
  // "résumé.pdf": each é is one '_' in the fallback and C3 A9 in filename*.
  EXPECT_EQ(content_disposition("r\xc3\xa9sum\xc3\xa9.pdf", "application/pdf"),
            "inline; filename=\"r_sum_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf");
  // "€ rates.xlsx": a three-byte character.
  EXPECT_EQ(content_disposition("\xe2\x82\xac rates.xlsx", "application/vnd.ms-excel"),
            "attachment; filename=\"_ rates.xlsx\"; filename*=UTF-8''%E2%82%AC%20rates.xlsx");
  // "日本.png" and a four-byte emoji.
  EXPECT_EQ(content_disposition("\xe6\x97\xa5\xe6\x9c\xac.png", "image/png"),
            "inline; filename=\"__.png\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.png");
  EXPECT_EQ(content_disposition("\xf0\x9f\x98\x80", "video/mp4"),
            "inline; filename=\"_\"; filename*=UTF-8''%F0%9F%98%80");
}

TEST(FileContentDisposition, NothingInANameBreaksTheHeader) {
  // Controls are refused before a name is stored; were one to get here, it is still harmless.
  const std::string injected = "a.txt\r\nSet-Cookie: x=1\r\n\r\n<script>";
  const std::string value = content_disposition(injected, "text/html\r\nX: y");
  EXPECT_FALSE(has_line_break(value));
  EXPECT_EQ(value,
            "attachment; filename=\"a.txt__Set-Cookie: x=1____<script>\"; "
            "filename*=UTF-8''a.txt%0D%0ASet-Cookie%3A%20x%3D1%0D%0A%0D%0A%3Cscript%3E");
  // Every byte value, alone and in a name: printable ASCII out, one quoted string.
  for (int byte = 0; byte < 256; ++byte) {
    const std::string name = "a" + std::string(1, static_cast<char>(byte)) + "b";
    const std::string out = content_disposition(name, "text/plain");
    for (const char c : out) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u < 0x7F) << "byte " << byte;
    }
    const size_t start = out.find("filename=\"") + 10;
    const size_t end = out.find("\"; filename*=");
    ASSERT_NE(end, std::string::npos) << "byte " << byte;
    EXPECT_EQ(out.substr(start, end - start).find_first_of("\"\\%"), std::string::npos)
        << "byte " << byte;
    EXPECT_NE(out.find("filename*=UTF-8''a"), std::string::npos) << "byte " << byte;
  }
}

TEST(FileContentDisposition, ALongNameIsKeptWhole) {
  const std::string name = std::string(251, 'x') + ".bin";
  const std::string value = content_disposition(name, "application/octet-stream");
  EXPECT_EQ(value, "attachment; filename=\"" + name + "\"; filename*=UTF-8''" + name);
}

// --- Content-Type ---

TEST(FileServedType, ScriptAndStyleTypesAreServedAsPlainText) {
  for (const char* type : {"application/javascript",
                           "text/javascript",
                           "text/javascript; charset=utf-8",
                           "Application/JavaScript",
                           " text/javascript ",
                           "application/ecmascript",
                           "application/x-javascript",
                           "application/x-ecmascript",
                           "text/ecmascript",
                           "text/javascript1.0",
                           "text/javascript1.5",
                           "text/jscript",
                           "text/livescript",
                           "text/x-javascript",
                           "text/x-ecmascript",
                           "text/css",
                           "text/css; charset=utf-8",
                           "TEXT/CSS",
                           "text/xsl",
                           "application/xslt+xml"}) {
    EXPECT_TRUE(runs_in_page(type)) << type;
    EXPECT_EQ(served_content_type(type), "text/plain; charset=utf-8") << type;
    // Still an attachment, by the stored type: opened, it is saved, not shown.
    EXPECT_TRUE(content_disposition("x", type).starts_with("attachment;")) << type;
  }
}

TEST(FileServedType, OtherTypesAreServedAsStored) {
  // Documents keep their type: Content-Security-Policy: sandbox and attachment cover them, and
  // an SVG shown as an image runs nothing.
  for (const char* type :
       {"text/plain", "text/plain; charset=iso-8859-1", "image/png", "image/svg+xml", "text/html",
        "text/html; charset=utf-8", "application/xhtml+xml", "application/xml", "text/xml",
        "application/json", "application/octet-stream", "video/mp4", "application/pdf",
        "text/javascript2", "text/cssx", "application/javascript+x", "xtext/css", "text/csv", ""}) {
    EXPECT_FALSE(runs_in_page(type)) << type;
    EXPECT_EQ(served_content_type(type), type) << type;
  }
}

}  // namespace
}  // namespace opbase::file
