#include "util/clock.hpp"

#include <chrono>

namespace opbase::host {

int64_t system_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace opbase::host
