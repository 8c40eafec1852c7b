#include "http/chunked_decoder.hpp"

#include <algorithm>

#include "opbase/hex.hpp"

namespace opbase::host::http {

size_t ChunkedDecoder::fail(std::string message, size_t consumed) {
  state_ = State::kFailed;
  error_ = "the chunked body is malformed: " + std::move(message);
  return consumed;
}

size_t ChunkedDecoder::feed(std::string_view input, std::string& body) {
  size_t i = 0;
  while (i < input.size() && state_ != State::kDone && state_ != State::kFailed) {
    const char c = input[i];
    switch (state_) {
      case State::kSize: {
        const int digit = hex_digit_value(c);
        if (digit >= 0) {
          if (++size_digits_ > 16) return fail("a chunk size has more than 16 hex digits", i);
          remaining_ = remaining_ * 16 + static_cast<uint64_t>(digit);
        } else if (size_digits_ == 0) {
          return fail("a chunk size is not a hex number", i);
        } else if (c == ';') {
          state_ = State::kExtension;
        } else if (c == '\r') {
          state_ = State::kSizeLF;
        } else {
          return fail("a chunk size is followed by something other than ';' or CRLF", i);
        }
        ++i;
        break;
      }
      case State::kExtension:
        if (++line_bytes_ > kMaxLineBytes) return fail("a chunk extension is too long", i);
        if (c == '\n') return fail("a bare LF ends a chunk size line", i);
        if (c == '\r') state_ = State::kSizeLF;
        ++i;
        break;
      case State::kSizeLF:
        if (c != '\n') return fail("a chunk size line does not end with CRLF", i);
        ++i;
        size_digits_ = 0;
        line_bytes_ = 0;
        state_ = remaining_ == 0 ? State::kTrailer : State::kData;
        break;
      case State::kData: {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(remaining_, input.size() - i));
        body.append(input.data() + i, take);
        i += take;
        remaining_ -= take;
        if (remaining_ == 0) state_ = State::kDataCR;
        break;
      }
      case State::kDataCR:
        if (c != '\r') return fail("a chunk's data is longer than its size", i);
        ++i;
        state_ = State::kDataLF;
        break;
      case State::kDataLF:
        if (c != '\n') return fail("a chunk's data does not end with CRLF", i);
        ++i;
        state_ = State::kSize;
        break;
      case State::kTrailer:
        if (c == '\r') {
          state_ = State::kTrailerLF;
        } else if (c == '\n') {
          return fail("a bare LF ends a trailer line", i);
        } else {
          ++line_bytes_;
          if (++trailer_bytes_ > kMaxTrailerBytes) return fail("the trailer is too long", i);
        }
        ++i;
        break;
      case State::kTrailerLF:
        if (c != '\n') return fail("a trailer line does not end with CRLF", i);
        ++i;
        state_ = line_bytes_ == 0 ? State::kDone : State::kTrailer;
        line_bytes_ = 0;
        break;
      case State::kDone:
      case State::kFailed:
        break;
    }
  }
  return i;
}

}  // namespace opbase::host::http
