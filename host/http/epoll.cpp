#include "http/epoll.hpp"

#include <sys/eventfd.h>

namespace opbase::host::http {

Epoll::~Epoll() {
  if (wake_fd_ >= 0) ::close(wake_fd_);
  if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

bool Epoll::open() {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) return false;
  watch(wake_fd_, EPOLLIN, &wake_fd_);
  return true;
}

}  // namespace opbase::host::http
