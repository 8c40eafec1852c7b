// Names the calling thread, so `top -H`, `ps -L` and perf tell a daemon's threads apart
// ("sqlite-writer", "wh-feeder"...). Linux keeps 15 bytes of a name: longer ones are cut.
// For the host and for plugins alike (a BackgroundWorker names its thread with it).
// Thread-safety: names only the calling thread.
#pragma once

#include <string_view>

namespace opbase {

void name_this_thread(std::string_view name);

}  // namespace opbase
