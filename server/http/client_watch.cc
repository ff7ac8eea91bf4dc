// Polling a request's connection for the peer's shutdown.
#include "server/http/client_watch.h"

#include <poll.h>

#include "server/http/guarded_server.h"

namespace qs::server::http {

ClientWatch::ClientWatch(const httplib::Request& /*request*/) {
  // Handlers run on their connection's thread.
  if (const Connection* connection = CurrentConnection()) fd_ = connection->fd;
}

bool ClientWatch::Gone() {
  if (fd_ < 0) return false;
  pollfd p{.fd = fd_, .events = POLLRDHUP, .revents = 0};
  if (poll(&p, 1, 0) < 0) return false;
  return (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

}  // namespace qs::server::http
