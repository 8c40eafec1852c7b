// Webhook targets: URLs accepted with their parts and refused with a message naming the fault,
// addresses of both families judged private or public (mapped and NAT64 forms by their IPv4
// address), and resolve_target on loopback literals and localhost with and without
// allow_private. Nothing here resolves a name other than localhost or leaves the machine.
#include "endpoints/webhook_target.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

#include <string>

namespace opbase::webhooks {
namespace {

struct Accepted {
  const char* url;
  const char* scheme;
  const char* host;
  HostKind kind;
  uint16_t port;
  const char* path;
};

constexpr Accepted kAccepted[] = {
    {"https://hooks.example.com/webhook", "https", "hooks.example.com", HostKind::kName, 443,
     "/webhook"},
    {"http://example.com", "http", "example.com", HostKind::kName, 80, "/"},
    {"HTTPS://Hooks.Example.COM/Path/To?Q=1&b=%20", "https", "hooks.example.com", HostKind::kName,
     443, "/Path/To?Q=1&b=%20"},
    {"http://example.com:8080/a/b/", "http", "example.com", HostKind::kName, 8080, "/a/b/"},
    {"https://example.com:1/", "https", "example.com", HostKind::kName, 1, "/"},
    {"https://example.com:65535", "https", "example.com", HostKind::kName, 65535, "/"},
    {"https://example.com:00443/x", "https", "example.com", HostKind::kName, 443, "/x"},
    {"http://example.com?x=1", "http", "example.com", HostKind::kName, 80, "/?x=1"},
    {"http://example.com/?", "http", "example.com", HostKind::kName, 80, "/?"},
    {"http://localhost:3000/hook", "http", "localhost", HostKind::kName, 3000, "/hook"},
    {"http://my_host-1.internal/", "http", "my_host-1.internal", HostKind::kName, 80, "/"},
    {"http://a1.b2.example/", "http", "a1.b2.example", HostKind::kName, 80, "/"},
    {"http://127.0.0.1:8081/in", "http", "127.0.0.1", HostKind::kIpv4, 8081, "/in"},
    {"https://93.184.216.34/", "https", "93.184.216.34", HostKind::kIpv4, 443, "/"},
    {"http://[::1]:9000/x", "http", "::1", HostKind::kIpv6, 9000, "/x"},
    {"http://[2001:DB8:0:0:0:0:0:1]/", "http", "2001:db8::1", HostKind::kIpv6, 80, "/"},
    {"https://[::ffff:127.0.0.1]", "https", "::ffff:127.0.0.1", HostKind::kIpv6, 443, "/"},
    {"http://example.com//double//slashes", "http", "example.com", HostKind::kName, 80,
     "//double//slashes"},
    {"http://example.com/a@b/c:d", "http", "example.com", HostKind::kName, 80, "/a@b/c:d"},
};

TEST(WebhookTarget, AcceptsUrlsWithTheirParts) {
  for (const Accepted& row : kAccepted) {
    auto url = parse_target_url(row.url);
    ASSERT_TRUE(url) << row.url << ": " << url.status().to_string();
    EXPECT_EQ(url->scheme, row.scheme) << row.url;
    EXPECT_EQ(url->host, row.host) << row.url;
    EXPECT_EQ(url->host_kind, row.kind) << row.url;
    EXPECT_EQ(url->port, row.port) << row.url;
    EXPECT_EQ(url->path, row.path) << row.url;
    // text() is a URL that parses to the same parts.
    auto again = parse_target_url(url->text());
    ASSERT_TRUE(again) << url->text();
    EXPECT_EQ(*again, *url) << url->text();
  }
}

TEST(WebhookTarget, WritesTheUrlAgainWithBracketsAndOnlyAnExplicitPort) {
  EXPECT_EQ(parse_target_url("HTTPS://Example.com:443")->text(), "https://example.com/");
  EXPECT_EQ(parse_target_url("http://example.com:443/a?b")->text(), "http://example.com:443/a?b");
  EXPECT_EQ(parse_target_url("http://[0::1]:80/")->text(), "http://[::1]/");
  EXPECT_EQ(parse_target_url("http://[::1]:81/")->url_host(), "[::1]");
}

struct Refused {
  const char* url;
  const char* message_part;  // a piece of the message naming what is wrong
};

const Refused kRefused[] = {
    {"", "http:// or https://"},
    {"example.com/hook", "http:// or https://"},
    {"ftp://example.com/", "http:// or https://"},
    {"file:///etc/passwd", "http:// or https://"},
    {"javascript://example.com/%0aalert(1)", "http:// or https://"},
    {"http:/example.com/", "http:// or https://"},
    {"http//example.com/", "http:// or https://"},
    {"https://user:pass@example.com/", "user information"},
    {"https://user@example.com/", "user information"},
    {"https://example.com@127.0.0.1/", "user information"},
    {"https://@example.com/", "user information"},
    {"https://example.com/#frag", "fragment"},
    {"https://example.com#", "fragment"},
    {"https://example.com/a b", "offset 21"},
    {"https://exa mple.com/", "offset 11"},
    {"https://example.com/\t", "offset 20"},
    {"https://example.com/\r\nHost: evil", "offset 20"},
    {"https://example.com/\x7f", "offset 20"},
    {"https://ex\xc3\xa4mple.com/", "non-ASCII"},
    {"https://example.com/caf\xc3\xa9", "non-ASCII"},
    {"https:///path", "host is empty"},
    {"https://", "host is empty"},
    {"https://:8080/", "host is empty"},
    {"https://?q", "host is empty"},
    {"https://example.com:0/", "port"},
    {"https://example.com:65536/", "port"},
    {"https://example.com:99999999999999999999/", "port"},
    {"https://example.com:/", "port"},
    {"https://example.com:8o/", "port"},
    {"https://example.com:+80/", "port"},
    {"https://example.com:-1/", "port"},
    {"https://example.com:80:81/", "port"},
    {"https://ex%61mple.com/", "neither a DNS name"},
    {"https://example..com/", "neither a DNS name"},
    {"https://.example.com/", "neither a DNS name"},
    {"https://example.com./", "neither a DNS name"},
    {"https://exa!mple.com/", "neither a DNS name"},
    {"https://example.com\\@evil.com/", "user information"},
    {"https://evil.com\\.example.com/", "neither a DNS name"},
    {"http://127.1/", "neither a DNS name"},
    {"http://2130706433/", "neither a DNS name"},
    {"http://0x7f.0.0.1/", "neither a DNS name"},
    {"http://0177.0.0.1/", "neither a DNS name"},
    {"http://127.0.0.1.5/", "neither a DNS name"},
    {"http://256.0.0.1/", "neither a DNS name"},
    {"http://example.1com/", "neither a DNS name"},
    {"http://::1/", "host is empty"},
    {"http://[::1/", "'['"},
    {"http://[::1]x/", "after its ']'"},
    {"http://[::1]]/", "after its ']'"},
    {"http://[127.0.0.1]/", "IPv6 address in brackets"},
    {"http://[fe80::1%25eth0]/", "IPv6 address in brackets"},
    {"http://[]/", "IPv6 address in brackets"},
    {"http://[::g]/", "IPv6 address in brackets"},
    {"http://ex[ample].com/", "neither a DNS name"},
};

TEST(WebhookTarget, RefusesUrlsNamingWhatIsWrong) {
  for (const Refused& row : kRefused) {
    auto url = parse_target_url(row.url);
    ASSERT_FALSE(url) << row.url << " parsed as " << url->text();
    EXPECT_EQ(url.status().code(), "VALIDATION_ERROR") << row.url;
    EXPECT_NE(url.status().message().find(row.message_part), std::string::npos)
        << row.url << ": " << url.status().message();
    EXPECT_EQ(url.status().details(), (nlohmann::json{{"field", "url"}})) << row.url;
  }
}

TEST(WebhookTarget, RefusesLongUrlsAndLongHostNames) {
  const std::string base = "https://example.com/";
  EXPECT_TRUE(parse_target_url(base + std::string(kMaxUrlBytes - base.size(), 'a')));
  auto url = parse_target_url(base + std::string(kMaxUrlBytes - base.size() + 1, 'a'));
  ASSERT_FALSE(url);
  EXPECT_NE(url.status().message().find("longer than 2048 bytes"), std::string::npos);

  EXPECT_TRUE(parse_target_url("https://" + std::string(63, 'a') + ".com/"));
  EXPECT_FALSE(parse_target_url("https://" + std::string(64, 'a') + ".com/"));
  std::string long_name;  // 4 labels of 63 plus 3 dots = 255 > 253
  for (int i = 0; i < 4; ++i) long_name += (i ? "." : "") + std::string(63, 'a');
  EXPECT_FALSE(parse_target_url("https://" + long_name + "/"));
}

// --- addresses ---

sockaddr_in v4(const char* text) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  EXPECT_EQ(inet_pton(AF_INET, text, &address.sin_addr), 1) << text;
  return address;
}

sockaddr_in6 v6(const char* text) {
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  EXPECT_EQ(inet_pton(AF_INET6, text, &address.sin6_addr), 1) << text;
  return address;
}

bool is_private(const char* text) {
  if (std::string_view(text).find(':') == std::string_view::npos) {
    const sockaddr_in address = v4(text);
    return is_private_address(reinterpret_cast<const sockaddr*>(&address));
  }
  const sockaddr_in6 address = v6(text);
  return is_private_address(reinterpret_cast<const sockaddr*>(&address));
}

constexpr const char* kPrivate[] = {
    // IPv4
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "192.168.255.255",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.0.1",
    "192.0.0.170",
    "198.18.0.1",
    "198.19.255.255",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    // IPv6
    "::1",
    "::",
    "fc00::1",
    "fd12:3456:789a::1",
    "fe80::1",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "ff05::1:3",
    "2001:db8::1",
    "3fff::1",
    "100::1",
    "::7f00:1",
    "::0.0.0.1",
    // IPv4 inside IPv6, private inside
    "::ffff:127.0.0.1",
    "::ffff:10.1.2.3",
    "::ffff:169.254.169.254",
    "::ffff:0.0.0.0",
    "::ffff:0:192.168.1.1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b::192.168.0.1",
    "64:ff9b:1::8.8.8.8",
    "2002:7f00:1::",
    "2002:c0a8:101::1",
};

constexpr const char* kPublic[] = {
    // IPv4, with the edges of the ranges above
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "9.255.255.255",
    "11.0.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "126.255.255.255",
    "128.0.0.0",
    "169.253.255.255",
    "169.255.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.0.1.0",
    "192.0.3.0",
    "192.167.255.255",
    "192.169.0.0",
    "198.17.255.255",
    "198.20.0.0",
    "198.51.99.255",
    "203.0.112.255",
    "223.255.255.255",
    "1.0.0.0",
    // IPv6
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001::1",
    "fbff::1",
    "fe7f::1",
    "2001:db9::1",
    "3ffe::1",
    "4000::1",
    "100:0:0:1::1",
    // IPv4 inside IPv6, public inside
    "::ffff:8.8.8.8",
    "::ffff:0:1.1.1.1",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
};

TEST(WebhookTarget, JudgesPrivateAddresses) {
  for (const char* text : kPrivate) EXPECT_TRUE(is_private(text)) << text;
}

TEST(WebhookTarget, JudgesPublicAddresses) {
  for (const char* text : kPublic) EXPECT_FALSE(is_private(text)) << text;
}

TEST(WebhookTarget, CountsUnknownFamiliesAndNullAsPrivate) {
  EXPECT_TRUE(is_private_address(nullptr));
  sockaddr_storage storage{};
  storage.ss_family = AF_UNIX;
  EXPECT_TRUE(is_private_address(reinterpret_cast<const sockaddr*>(&storage)));
}

// --- resolving (loopback literals and localhost only) ---

TargetUrl url_of(const char* text) {
  auto url = parse_target_url(text);
  EXPECT_TRUE(url) << text;
  return url.is_ok() ? *url : TargetUrl{};
}

TEST(WebhookTarget, RefusesLoopbackLiteralsUnlessPrivateTargetsAreAllowed) {
  for (const char* text : {"http://127.0.0.1:8080/hook", "http://[::1]:8080/hook"}) {
    const TargetUrl url = url_of(text);
    auto refused = resolve_target(url, /*allow_private=*/false);
    ASSERT_FALSE(refused) << text;
    EXPECT_EQ(refused.status().code(), kTargetRefused) << text;
    EXPECT_NE(refused.status().message().find("url host " + url.host), std::string::npos)
        << refused.status().message();
    EXPECT_NE(refused.status().message().find("webhooks.allow_private_targets"), std::string::npos);
    EXPECT_EQ(refused.status().details(), (nlohmann::json{{"field", "url"}}));

    auto allowed = resolve_target(url, /*allow_private=*/true);
    ASSERT_TRUE(allowed) << text << ": " << allowed.status().to_string();
    EXPECT_EQ(allowed->address, url.host);
    EXPECT_EQ(allowed->port, 8080);
    EXPECT_EQ(allowed->family, url.host_kind == HostKind::kIpv6 ? AF_INET6 : AF_INET);
    // Literals are not resolved by curl: nothing to pin.
    EXPECT_EQ(allowed->curl_resolve_entry(), "");
  }
}

TEST(WebhookTarget, RefusesLocalhostUnlessPrivateTargetsAreAllowed) {
  const TargetUrl url = url_of("http://LocalHost:3000/in");
  auto refused = resolve_target(url, false);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.status().code(), kTargetRefused);
  EXPECT_NE(refused.status().message().find("url host localhost "), std::string::npos)
      << refused.status().message();
  // The message names the host, not the addresses it resolved to.
  EXPECT_EQ(refused.status().message().find("127.0.0.1"), std::string::npos);
  EXPECT_EQ(refused.status().message().find("::1"), std::string::npos);

  auto allowed = resolve_target(url, true);
  ASSERT_TRUE(allowed) << allowed.status().to_string();
  EXPECT_EQ(allowed->host, "localhost");
  EXPECT_EQ(allowed->port, 3000);
  if (allowed->family == AF_INET) {
    EXPECT_EQ(allowed->address.substr(0, 4), "127.");
    EXPECT_EQ(allowed->curl_resolve_entry(), "localhost:3000:" + allowed->address);
  } else {
    ASSERT_EQ(allowed->family, AF_INET6);
    EXPECT_EQ(allowed->address, "::1");
    EXPECT_EQ(allowed->curl_resolve_entry(), "localhost:3000:[::1]");
  }
}

TEST(WebhookTarget, ResolveEntriesBracketIpv6Addresses) {
  ResolvedTarget target{"hooks.example.com", HostKind::kName, 443, AF_INET6, "2001:db8::5"};
  EXPECT_EQ(target.curl_resolve_entry(), "hooks.example.com:443:[2001:db8::5]");
  target.family = AF_INET;
  target.address = "192.0.2.5";
  EXPECT_EQ(target.curl_resolve_entry(), "hooks.example.com:443:192.0.2.5");
}

TEST(WebhookTarget, PublicLiteralsPassWithoutTheNetwork) {
  // A numeric host is converted without DNS (AI_NUMERICHOST), so this needs no network.
  auto resolved = resolve_target(url_of("https://93.184.216.34/x"), false);
  ASSERT_TRUE(resolved) << resolved.status().to_string();
  EXPECT_EQ(resolved->address, "93.184.216.34");
  EXPECT_EQ(resolved->port, 443);
  auto mapped = resolve_target(url_of("https://[::ffff:127.0.0.1]/x"), false);
  ASSERT_FALSE(mapped);
  EXPECT_EQ(mapped.status().code(), kTargetRefused);
}

}  // namespace
}  // namespace opbase::webhooks
