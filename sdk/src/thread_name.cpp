#include "opbase/thread_name.hpp"

#include <pthread.h>

#include <string>

namespace opbase {

void name_this_thread(std::string_view name) {
  constexpr size_t kMostBytes = 15;  // the kernel's limit, without the terminating zero
  const std::string cut(name.substr(0, kMostBytes));
  // A name is a help for people, not a need of the program: a failure is ignored.
  (void)pthread_setname_np(pthread_self(), cut.c_str());
}

}  // namespace opbase
