// GuardedServer: cpp-httplib's server made to hold under hostile clients.
// cpp-httplib serves each connection on a thread of a fixed pool with a
// per-read timeout only, so a few clients that trickle their headers (or
// stay idle, or never read a streamed answer) hold every thread, and a
// chunked body is read whole before any handler sees the request. Here:
//   - every connection gets a thread of an elastic pool (ConnectionThreads),
//     up to --http_max_connections, so a slow client never blocks another;
//   - a registry bounds connections in total and per client address; at the
//     bound the oldest connection still waiting for (or trickling) its
//     headers is closed to make room, the way nginx reuses idle keep-alive
//     connections, so that a flood of slow clients cannot lock out a new one;
//   - the connection's stream (GuardedStream) enforces, below cpp-httplib's
//     parser, a deadline for the whole request head and a cap on its bytes,
//     a deadline for the whole body and a cap on its raw bytes (chunked
//     bodies included), and a write timeout;
//   - a gate run once the headers are in and before any body byte is read
//     (cpp-httplib's pre-routing and Expect: 100-continue hooks) answers 401
//     or 413 and closes the connection without reading the body.
// TLS connections run through the same stream over OpenSSL.
#ifndef QS_SERVER_HTTP_GUARDED_SERVER_H_
#define QS_SERVER_HTTP_GUARDED_SERVER_H_

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace qs::server::http {

using Clock = std::chrono::steady_clock;

struct ConnectionLimits {
  int max_connections = 1024;            // open at once, all clients
  int max_connections_per_client = 256;  // open at once from one address
  int idle_threads = 8;                  // connection threads kept waiting
  std::chrono::milliseconds keep_alive_timeout{5000};  // idle between requests
  std::chrono::milliseconds header_timeout{10000};     // whole request head
  std::chrono::milliseconds body_timeout{60000};       // whole body
  std::chrono::milliseconds write_timeout{10000};      // one blocked write
  size_t max_header_bytes = 64 << 10;                  // request line+headers
  size_t max_raw_body_bytes = (16 << 20) * 2 + (1 << 20);  // chunked framing
  // After a refusal (the body left unread), how long unread bytes are
  // drained so that the client sees the answer instead of a reset.
  std::chrono::milliseconds linger{1000};
};

// One accepted connection, as its thread and the registry see it.
struct Connection {
  // kIdle: between requests; kHead: reading a request line and headers;
  // kBody: from the headers on (its body, its handler, its answer). Only
  // kIdle and kHead connections are evicted.
  enum class Phase { kIdle, kHead, kBody };
  int fd = -1;
  std::string peer;  // client address, without the port
  uint64_t serial = 0;
  std::atomic<Phase> phase{Phase::kIdle};
  // Owned by the connection's thread.
  Clock::time_point deadline = Clock::time_point::max();
  size_t phase_bytes = 0;       // bytes read in the current phase
  size_t phase_limit = 0;       // 0: no limit
  bool close_after = false;     // the request left the stream unusable
  bool linger = false;          // refused with a body left unread
  bool body_too_large = false;  // the raw body cap tripped
};

// The connection being served by the calling thread, or null.
Connection* CurrentConnection();

// Open connections with their limits. Thread-safe.
class ConnectionRegistry {
 public:
  explicit ConnectionRegistry(const ConnectionLimits& limits)
      : limits_(limits) {}
  // Adds `c`, closing the oldest connection of the same client (or of any
  // client at the total bound) that is idle or still in its head when a
  // bound is reached. False when nothing could make room.
  bool Add(Connection* c);
  void Remove(Connection* c);
  // Shuts down the connections not serving a request (stop).
  void ShutdownIdle();
  // Shuts down every connection (stop, once the requests had their time).
  void ShutdownAll();

 private:
  bool EvictOldest(const std::string* peer);
  const ConnectionLimits limits_;
  mutable std::mutex mu_;
  std::vector<Connection*> open_;
  uint64_t next_serial_ = 0;
};

// cpp-httplib's task queue with a thread for every connection: threads are
// made on demand up to `max_threads` (tasks past it wait), and up to
// `idle_threads` finished ones stay to take the next connection.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  ConnectionThreads(int max_threads, int idle_threads)
      : max_threads_(max_threads), idle_threads_(idle_threads) {}
  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

 private:
  void Run(std::function<void()> fn);
  const int max_threads_;
  const int idle_threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> pending_;
  int threads_ = 0;
  int idle_ = 0;
  bool stopping_ = false;
};

// The request gate (pre-routing): answers `response` and returns true when
// the request is refused before its body is read.
using Gate = std::function<bool(const httplib::Request&, httplib::Response&)>;

// What the request loop of one connection needs from its server.
struct ConnectionHooks {
  const ConnectionLimits* limits;
  ConnectionRegistry* registry;
  SSL_CTX* ssl_ctx;  // null: plaintext
  int max_requests;  // on one connection
  std::function<bool()> stopping;
  std::function<bool(httplib::Stream&, bool close_connection,
                     bool& connection_closed,
                     const std::function<void(httplib::Request&)>& setup)>
      process_request;
};
// Serves the requests of one accepted connection within the limits, then
// closes it.
void ServeConnection(int fd, const ConnectionHooks& hooks);

// Installs the gate (run once the headers are in, before the body) and the
// body phase's limits on a server of either kind.
void InstallGate(httplib::Server& server, const ConnectionLimits& limits,
                 Gate gate);

// The listening socket of a bound server (cpp-httplib keeps it protected).
int ListeningSocket(httplib::Server& server);

// cpp-httplib's Server or SSLServer with each connection served by
// ServeConnection (cpp-httplib's own loop, which it replaces, is private).
template <class Base>
class Guarded : public Base {
 public:
  template <class... Args>
  Guarded(const ConnectionLimits& limits, ConnectionRegistry* registry,
          Args&&... args)
      : Base(std::forward<Args>(args)...),
        limits_(limits),
        registry_(registry) {}

 private:
  bool process_and_close_socket(socket_t sock) override {
    ConnectionHooks hooks{
        .limits = &limits_,
        .registry = registry_,
        .ssl_ctx = nullptr,
        .max_requests = static_cast<int>(this->keep_alive_max_count_),
        .stopping = [this] { return this->svr_sock_ == INVALID_SOCKET; },
        .process_request =
            [this](httplib::Stream& stream, bool close_connection,
                   bool& connection_closed,
                   const std::function<void(httplib::Request&)>& setup) {
              return this->process_request(stream, close_connection,
                                           connection_closed, setup);
            },
    };
    if constexpr (std::is_base_of_v<httplib::SSLServer, Base>)
      hooks.ssl_ctx = this->ssl_context();
    ServeConnection(sock, hooks);
    return true;
  }

  const ConnectionLimits limits_;
  ConnectionRegistry* registry_;
};

using GuardedServer = Guarded<httplib::Server>;
using GuardedSslServer = Guarded<httplib::SSLServer>;

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_GUARDED_SERVER_H_
