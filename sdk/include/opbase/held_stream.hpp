// HeldStream: a route's response held open after its head (RouteCall::hold; abi.h stream_hold),
// its body pushed in pieces from any thread for as long as the client stays: server-sent
// events. A push only queues the bytes; the host's HTTP front sends them, so a pusher never
// waits for a slow client, and a held response costs no thread. The host ends the response when
// the client leaves, reads too slowly (HoldSettings), or the daemon stops, and says so through
// `on_end`, once.
//
// Thread-safety: push, close and queued_bytes from any thread; the destructor once, when no
// other call is running.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "opbase/abi.h"

namespace opbase {

// How a held response ended (abi.h opbase_held_end).
enum class HeldEnd {
  kClientLeft,      // the client closed its side, or the connection failed
  kTooSlow,         // the client read too slowly
  kClosed,          // the plugin closed it
  kServerStopping,  // the daemon stops
};

struct HoldSettings {
  // The most bytes pushed and not yet taken by the client (at least 1024). A push past it ends
  // the response (kTooSlow), as does waiting bytes the client takes none of for
  // server.send_timeout_s: what waits is dropped and `too_slow_farewell` sent in its place.
  uint64_t max_queued_bytes = uint64_t{1} << 20;
  std::string too_slow_farewell;
  // Called once when the response ends, on the host's HTTP thread: quick, never blocking, and
  // never calling the HeldStream. Every held response ends before the plugin's shutdown.
  std::function<void(HeldEnd)> on_end;
};

class HeldStream {
 public:
  HeldStream(const opbase_host_api& api, opbase_held* held) : api_(api), held_(held) {}
  // The plugin lets go of the response; an open one stays open until it ends.
  ~HeldStream() { api_.held_release(held_); }
  HeldStream(const HeldStream&) = delete;
  HeldStream& operator=(const HeldStream&) = delete;

  // Queues `bytes` for the client; false once the response has ended.
  bool push(std::string_view bytes) {
    return api_.held_push(held_, {bytes.data(), bytes.size()}) == OPBASE_RC_OK;
  }
  // Sends what is queued, then `last`, and ends the response (kClosed).
  void close(std::string_view last = {}) { api_.held_close(held_, {last.data(), last.size()}); }
  // Bytes pushed and not yet taken by the client's socket.
  uint64_t queued_bytes() const { return api_.held_queued_bytes(held_); }

 private:
  const opbase_host_api& api_;
  opbase_held* held_;
};

}  // namespace opbase
