// Finding a request's socket and polling it for the peer's shutdown.
#include "server/http/client_watch.h"

#include <dirent.h>
#include <netdb.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstdlib>
#include <string>

namespace qs::server::http {
namespace {

// The numeric host and the port of a socket address, as cpp-httplib reports
// them in Request::remote_addr / local_addr.
bool HostAndPort(const sockaddr_storage& address, socklen_t length,
                 std::string* host, int* port) {
  char host_buffer[NI_MAXHOST], port_buffer[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length,
                  host_buffer, sizeof(host_buffer), port_buffer,
                  sizeof(port_buffer), NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return false;
  *host = host_buffer;
  *port = std::atoi(port_buffer);
  return true;
}

}  // namespace

int ClientWatch::FindSocket() const {
  if (request_.ssl != nullptr) return SSL_get_fd(request_.ssl);
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  int found = -1;
  while (dirent* entry = readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0') continue;
    sockaddr_storage local{}, peer{};
    socklen_t local_length = sizeof(local), peer_length = sizeof(peer);
    if (getsockname(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&local),
                    &local_length) != 0 ||
        (local.ss_family != AF_INET && local.ss_family != AF_INET6) ||
        getpeername(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&peer),
                    &peer_length) != 0)
      continue;
    std::string local_host, peer_host;
    int local_port = 0, peer_port = 0;
    if (HostAndPort(local, local_length, &local_host, &local_port) &&
        HostAndPort(peer, peer_length, &peer_host, &peer_port) &&
        local_port == request_.local_port &&
        peer_port == request_.remote_port &&
        peer_host == request_.remote_addr) {
      found = static_cast<int>(fd);
      break;
    }
  }
  closedir(dir);
  return found;
}

bool ClientWatch::Gone() {
  if (fd_ == -2) fd_ = FindSocket();
  if (fd_ < 0) return false;
  pollfd p{.fd = fd_, .events = POLLRDHUP, .revents = 0};
  if (poll(&p, 1, 0) < 0) return false;
  return (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

}  // namespace qs::server::http
