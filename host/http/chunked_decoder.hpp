// ChunkedDecoder: reads a chunked request body (RFC 9112 section 7.1) as its bytes arrive, in any
// pieces, and appends the data of each chunk to the body. Strict like the head parser: sizes are
// hex digits (at most 16), every line ends with CRLF, chunk extensions and trailer fields are
// skipped but bounded (kMaxLineBytes per line, kMaxTrailerBytes in all).
//
// Thread-safety: one decoder per request, used by one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opbase::host::http {

class ChunkedDecoder {
 public:
  static constexpr size_t kMaxLineBytes = 1024;
  static constexpr size_t kMaxTrailerBytes = 8192;

  // Consumes bytes of `input` and appends chunk data to `body`. Answers how many bytes it took:
  // all of them unless the body ended (done()) or the framing is wrong (failed()) within them.
  size_t feed(std::string_view input, std::string& body);

  bool done() const { return state_ == State::kDone; }
  bool failed() const { return state_ == State::kFailed; }
  const std::string& error() const { return error_; }

 private:
  enum class State {
    kSize,       // hex digits of the next chunk's size
    kExtension,  // after ';' up to the line's CR
    kSizeLF,     // the LF after the size line's CR
    kData,       // `remaining_` bytes of data
    kDataCR,     // the CR after the data
    kDataLF,     // the LF after the data
    kTrailer,    // a trailer line, or the final empty line
    kTrailerLF,  // the LF after a trailer line's CR
    kDone,
    kFailed,
  };
  size_t fail(std::string message, size_t consumed);

  State state_ = State::kSize;
  uint64_t remaining_ = 0;  // data bytes left in the chunk being read, or its size so far
  size_t size_digits_ = 0;
  size_t line_bytes_ = 0;  // of the size line or trailer line being read
  size_t trailer_bytes_ = 0;
  std::string error_;
};

}  // namespace opbase::host::http
