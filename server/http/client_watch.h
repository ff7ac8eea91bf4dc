// ClientWatch: whether the client of an HTTP request has gone away, so that a
// job it started can be interrupted while the handler still waits for the
// job's status (cpp-httplib writes the status line only when the handler
// returns, and gives handlers no socket). The request's connection is the
// one its thread serves (guarded_server.h); it is polled for the peer's
// shutdown (POLLRDHUP) without reading from it. Used by one handler thread at
// a time.
#ifndef QS_SERVER_HTTP_CLIENT_WATCH_H_
#define QS_SERVER_HTTP_CLIENT_WATCH_H_

#include <httplib.h>

namespace qs::server::http {

class ClientWatch {
 public:
  // Made on the handler's thread.
  explicit ClientWatch(const httplib::Request& request);

  // True once the peer has closed the connection (or it broke). False while
  // it is open, and when the connection is unknown.
  bool Gone();

 private:
  int fd_ = -1;
};

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_CLIENT_WATCH_H_
