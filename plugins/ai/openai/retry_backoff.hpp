// When to try a model server call again. A 429, 500, 502, 503 or 504 answer and a failed or
// dropped connection are worth another attempt; any other answer is final. The wait before
// retry n (1, 2, ...) is the server's Retry-After when it gave one, else base * 2^(n-1) (at most
// kMaxBackoff) with "equal jitter": half of it fixed, half random, so that many clients refused
// at once do not come back at once.
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>

namespace opbase::ai {

inline constexpr std::chrono::milliseconds kMaxBackoff{8'000};

// True for the HTTP statuses another attempt may cure.
bool is_retryable_status(int status);

// The wait before retry `retry` (1-based) given `base`; `random01` in [0, 1) picks the jitter.
std::chrono::milliseconds backoff_delay(int retry, std::chrono::milliseconds base, double random01);

// A fresh random number in [0, 1) for backoff_delay (per-thread generator).
double jitter_draw();

}  // namespace opbase::ai
