// Where a webhook goes, and the guard that keeps it off private networks (docs/api.md#delivery).
//
// parse_target_url takes the endpoint URL an application team configures: http or https, a host
// (DNS name, dotted IPv4 address or bracketed IPv6 address), an optional port, a path and query
// kept as written. It refuses whatever could make the URL mean something else to the deliverer
// than to this check: user information, fragments, spaces, control characters, non-ASCII bytes,
// numeric host spellings other than a dotted quad ("127.1", "2130706433", "0x7f.0.0.1").
//
// resolve_target returns the addresses a host has and refuses the target when any of them is
// private (is_private_address), unless private targets are allowed (the development config and
// the tests allow them). The deliverer then pins its connection to the checked address with
// curl_resolve_entry() (the HTTP request's pin), so DNS cannot answer differently between the check
// and the connection (DNS rebinding).
// Thread-safety: pure functions; resolve_target blocks on getaddrinfo, which is thread-safe.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::webhooks {

// The code of a target refused for its addresses, and of a host that did not resolve. Both
// answer HTTP 400 (a code the host's table does not know), like VALIDATION_ERROR.
inline constexpr std::string_view kTargetRefused = "TARGET_REFUSED";
inline constexpr std::string_view kTargetUnresolved = "TARGET_UNRESOLVED";

inline constexpr size_t kMaxUrlBytes = 2048;

enum class HostKind { kName, kIpv4, kIpv6 };

struct TargetUrl {
  std::string scheme;  // "http" or "https" (written in any case, kept lowercase)
  // A DNS name in lowercase, a dotted IPv4 address, or an IPv6 address in its canonical text
  // (inet_ntop) without brackets.
  std::string host;
  HostKind host_kind = HostKind::kName;
  uint16_t port = 0;  // as written, else 80 for http and 443 for https
  // The request target: path and query as written; "/" when the URL has neither, and "/" put
  // before a query that follows the host directly ("http://h?a" -> "/?a").
  std::string path;

  // The host as a URL writes it: IPv6 addresses in brackets.
  std::string url_host() const;
  // The URL again: scheme://url_host()[:port]path, the port only when it is not the default.
  // parse_target_url(text()) returns this TargetUrl.
  std::string text() const;

  bool operator==(const TargetUrl&) const = default;
};

// The parts of `url`, or VALIDATION_ERROR (details {"field": "url"}) with a message naming
// what is wrong: the length (over kMaxUrlBytes), a byte that is a space, a control character or
// not ASCII (with its offset), the scheme, user information, a fragment, the host, the port.
Result<TargetUrl> parse_target_url(std::string_view url);

// True for addresses a webhook must not reach unless private targets are allowed: loopback,
// private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10), shared
// CGNAT 100.64/10, unspecified and "this network" (0/8, ::), multicast (224/4, ff00::/8),
// reserved 240/4 with the broadcast address, 192.0.0/24, benchmarking 198.18/15, the
// documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20),
// deprecated site-local fec0::/10, discard-only 100::/64, local-use NAT64 64:ff9b:1::/48 and
// all of ::/96 (loopback, unspecified, the deprecated IPv4-compatible form). IPv6 forms that
// carry an IPv4 address — mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, NAT64
// 64:ff9b::/96, 6to4 2002::/16 — are judged by that IPv4 address. Anything but AF_INET and
// AF_INET6 (and null) counts as private. `address` points to a sockaddr_in or sockaddr_in6.
bool is_private_address(const sockaddr* address);

struct ResolvedTarget {
  std::string host;  // TargetUrl::host
  HostKind host_kind = HostKind::kName;
  uint16_t port = 0;
  int family = 0;       // AF_INET or AF_INET6
  std::string address;  // the first address resolve_target found, numeric, without brackets

  // "host:port:address" (an IPv6 address in brackets) for CURLOPT_RESOLVE, so curl connects to
  // the address that was checked. Empty when the host is an address literal: curl does not
  // resolve those, so there is nothing to pin, and its entry syntax cannot name an IPv6 host
  // (curl 7.88 fails the transfer with "Couldn't parse CURLOPT_RESOLVE entry").
  std::string curl_resolve_entry() const;
};

// The target's addresses (getaddrinfo; address literals without DNS). TARGET_REFUSED naming the
// host (not its addresses) when `allow_private` is false and any address is private;
// TARGET_UNRESOLVED when the host has no address or the lookup fails. Both with details
// {"field": "url"}.
Result<ResolvedTarget> resolve_target(const TargetUrl& target, bool allow_private);

}  // namespace opbase::webhooks
