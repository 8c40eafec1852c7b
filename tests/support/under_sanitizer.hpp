// kUnderSanitizer: whether this test binary is the sanitized build's (AddressSanitizer, with
// clang or GCC). Tests that repeat one path many times run it on fewer records there: a
// sanitizer's worth is in the paths taken, and it runs them ten to thirty times slower.
#pragma once

namespace opbase::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif
#else
inline constexpr bool kUnderSanitizer = false;
#endif

}  // namespace opbase::testing
