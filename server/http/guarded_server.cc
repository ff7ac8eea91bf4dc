// Connection threads, the connection registry, the deadline-keeping stream
// (plain or TLS) and the per-connection request loop of GuardedServer.
#include "server/http/guarded_server.h"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <thread>
#include <utility>

namespace qs::server::http {
namespace {

thread_local Connection* t_current = nullptr;

// Waits until `fd` is ready for `events` or `deadline` passes.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{.fd = fd, .events = events, .revents = 0};
    const int timeout =
        static_cast<int>(std::min<int64_t>(left.count() + 1, 1 << 30));
    const int n = poll(&p, 1, timeout);
    if (n > 0) return true;  // ready, or an error the next call reports
    if (n < 0 && errno != EINTR) return false;
  }
}

Clock::time_point Later(Clock::time_point a, std::chrono::milliseconds d) {
  return d.count() <= 0 ? Clock::time_point::max() : a + d;
}

std::string NumericHost(const sockaddr_storage& address, socklen_t length,
                        int* port) {
  char host[NI_MAXHOST], service[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, host,
                  sizeof(host), service, sizeof(service),
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "";
  if (port != nullptr) *port = std::atoi(service);
  return host;
}

std::string Address(int fd, bool peer, int* port) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  const int rc =
      peer ? getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length)
           : getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  if (rc != 0) return "";
  return NumericHost(address, length, port);
}

// The connection's bytes through poll-bounded non-blocking reads and writes:
// every read respects the connection's deadline and phase cap, every write
// the write timeout. Buffered, since cpp-httplib reads the head a byte at a
// time.
class GuardedStream : public httplib::Stream {
 public:
  GuardedStream(Connection& c, const ConnectionLimits& limits, SSL* ssl)
      : c_(c), limits_(limits), ssl_(ssl) {
    remote_ = Address(c.fd, true, &remote_port_);
    local_ = Address(c.fd, false, &local_port_);
  }

  bool is_readable() const override {
    return pos_ < end_ || (ssl_ != nullptr && SSL_pending(ssl_) > 0) ||
           WaitFor(c_.fd, POLLIN, c_.deadline);
  }
  bool is_writable() const override {
    if (!WaitFor(c_.fd, POLLOUT, Later(Clock::now(), limits_.write_timeout)))
      return false;
    pollfd p{.fd = c_.fd, .events = POLLRDHUP, .revents = 0};
    return poll(&p, 1, 0) >= 0 &&
           (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0;
  }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ == end_) {
      if (c_.phase_limit != 0 && c_.phase_bytes >= c_.phase_limit) {
        if (c_.phase == Connection::Phase::kBody) c_.body_too_large = true;
        // The client is still sending: let it read the answer.
        c_.linger = true;
        return Fail();
      }
      const ssize_t n = Fill();
      if (n <= 0) return n < 0 ? Fail() : 0;
      c_.phase_bytes += static_cast<size_t>(n);
    }
    const size_t n = std::min(size, end_ - pos_);
    std::memcpy(ptr, buffer_ + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    const Clock::time_point deadline =
        Later(Clock::now(), limits_.write_timeout);
    for (;;) {
      if (ssl_ == nullptr) {
        const ssize_t n = send(c_.fd, ptr, size, MSG_NOSIGNAL);
        if (n >= 0) return n;
        if (errno == EINTR) continue;
        if ((errno != EAGAIN && errno != EWOULDBLOCK) ||
            !WaitFor(c_.fd, POLLOUT, deadline))
          return -1;
        continue;
      }
      const int n = SSL_write(
          ssl_, ptr, static_cast<int>(std::min<size_t>(size, 1 << 30)));
      if (n > 0) return n;
      if (!WaitSsl(n, deadline)) return -1;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = remote_;
    port = remote_port_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = local_;
    port = local_port_;
  }
  socket_t socket() const override { return c_.fd; }

  // Whether a byte of a next request is here before `deadline`.
  bool WaitReadable(Clock::time_point deadline) {
    if (pos_ < end_ || (ssl_ != nullptr && SSL_pending(ssl_) > 0)) return true;
    return WaitFor(c_.fd, POLLIN, deadline);
  }

 private:
  // A read that failed (timeout, cap, reset) leaves the request unusable:
  // the connection closes after its answer.
  ssize_t Fail() {
    c_.close_after = true;
    return -1;
  }

  ssize_t Fill() {
    pos_ = end_ = 0;
    for (;;) {
      if (ssl_ == nullptr) {
        const ssize_t n = recv(c_.fd, buffer_, sizeof(buffer_), 0);
        if (n >= 0) {
          end_ = static_cast<size_t>(n);
          return n;
        }
        if (errno == EINTR) continue;
        if ((errno != EAGAIN && errno != EWOULDBLOCK) ||
            !WaitFor(c_.fd, POLLIN, c_.deadline))
          return -1;
        continue;
      }
      const int n = SSL_read(ssl_, buffer_, sizeof(buffer_));
      if (n > 0) {
        end_ = static_cast<size_t>(n);
        return n;
      }
      if (SSL_get_error(ssl_, n) == SSL_ERROR_ZERO_RETURN) return 0;
      if (!WaitSsl(n, c_.deadline)) return -1;
    }
  }

  // After an SSL call returned `rc`: waits for what it needs; false on an
  // error or at the deadline.
  bool WaitSsl(int rc, Clock::time_point deadline) {
    switch (SSL_get_error(ssl_, rc)) {
      case SSL_ERROR_WANT_READ:
        return WaitFor(c_.fd, POLLIN, deadline);
      case SSL_ERROR_WANT_WRITE:
        return WaitFor(c_.fd, POLLOUT, deadline);
      default:
        ERR_clear_error();
        return false;
    }
  }

  Connection& c_;
  const ConnectionLimits& limits_;
  SSL* ssl_;
  std::string remote_, local_;
  int remote_port_ = 0, local_port_ = 0;
  char buffer_[16384];
  size_t pos_ = 0, end_ = 0;
};

// The TLS handshake within the head's deadline; null when it fails.
SSL* AcceptTls(SSL_CTX* ctx, Connection& c) {
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return nullptr;
  SSL_set_mode(
      ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
  if (SSL_set_fd(ssl, c.fd) != 1) {
    SSL_free(ssl);
    return nullptr;
  }
  for (;;) {
    const int rc = SSL_accept(ssl);
    if (rc == 1) return ssl;
    const int error = SSL_get_error(ssl, rc);
    const bool ready =
        (error == SSL_ERROR_WANT_READ && WaitFor(c.fd, POLLIN, c.deadline)) ||
        (error == SSL_ERROR_WANT_WRITE && WaitFor(c.fd, POLLOUT, c.deadline));
    if (!ready) {
      ERR_clear_error();
      SSL_free(ssl);
      return nullptr;
    }
  }
}

// A connection past the bounds is told so (plaintext only) and closed.
void RefuseBusy(int fd, bool tls) {
  if (tls) return;
  static constexpr char kBusy[] =
      "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
      "Retry-After: 1\r\nContent-Type: application/json\r\n"
      "Content-Length: 96\r\n\r\n"
      R"({"error":{"code":503,"status":"UNAVAILABLE","message":"too many )"
      R"(connections; retry later"}})"
      "\n";
  (void)send(fd, kBusy, sizeof(kBusy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

// After a refusal whose body was left unread: the answer is out; unread
// bytes are discarded for a moment so that closing does not reset the
// connection before the client read the answer.
void Linger(int fd, std::chrono::milliseconds linger) {
  shutdown(fd, SHUT_WR);
  const Clock::time_point deadline = Later(Clock::now(), linger);
  char sink[16384];
  while (WaitFor(fd, POLLIN, deadline)) {
    const ssize_t n = recv(fd, sink, sizeof(sink), 0);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break;
  }
}

}  // namespace

Connection* CurrentConnection() { return t_current; }

int ListeningSocket(httplib::Server& server) {
  // A protected member reached through a pointer to member of a derived
  // class, which C++ allows.
  struct Peek : httplib::Server {
    static int Of(httplib::Server& s) { return s.*(&Peek::svr_sock_); }
  };
  return Peek::Of(server);
}

bool ConnectionRegistry::Add(Connection* c) {
  std::lock_guard<std::mutex> lock(mu_);
  c->serial = next_serial_++;
  const auto same = std::count_if(open_.begin(), open_.end(),
                                  [&](auto* o) { return o->peer == c->peer; });
  if (same >= limits_.max_connections_per_client && !EvictOldest(&c->peer))
    return false;
  if (static_cast<int>(open_.size()) >= limits_.max_connections &&
      !EvictOldest(nullptr))
    return false;
  open_.push_back(c);
  return true;
}

bool ConnectionRegistry::EvictOldest(const std::string* peer) {
  auto oldest = open_.end();
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if (peer != nullptr && (*it)->peer != *peer) continue;
    if ((*it)->phase == Connection::Phase::kBody) continue;
    if (oldest == open_.end() || (*it)->serial < (*oldest)->serial) oldest = it;
  }
  if (oldest == open_.end()) return false;
  // Its thread sees the end of its stream and closes it; it still holds the
  // descriptor (it removes itself under this lock before closing it).
  shutdown((*oldest)->fd, SHUT_RDWR);
  open_.erase(oldest);
  return true;
}

void ConnectionRegistry::Remove(Connection* c) {
  std::lock_guard<std::mutex> lock(mu_);
  open_.erase(std::remove(open_.begin(), open_.end(), c), open_.end());
}

void ConnectionRegistry::ShutdownIdle() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Connection* c : open_) {
    if (c->phase != Connection::Phase::kBody) shutdown(c->fd, SHUT_RDWR);
  }
}

void ConnectionRegistry::ShutdownAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Connection* c : open_) shutdown(c->fd, SHUT_RDWR);
}

void ConnectionThreads::enqueue(std::function<void()> fn) {
  std::unique_lock<std::mutex> lock(mu_);
  // Idle threads not yet claimed by a waiting task take it; else a new
  // thread, unless at the bound.
  if (idle_ > static_cast<int>(pending_.size()) || threads_ >= max_threads_) {
    pending_.push_back(std::move(fn));
    cv_.notify_one();
    return;
  }
  ++threads_;
  try {
    std::thread([this, fn]() mutable { Run(std::move(fn)); }).detach();
  } catch (const std::system_error&) {
    // No thread to be had (a process limit): the task waits for a thread
    // that finishes its connection.
    --threads_;
    pending_.push_back(std::move(fn));
  }
}

void ConnectionThreads::Run(std::function<void()> fn) {
  for (;;) {
    fn();
    fn = nullptr;
    std::unique_lock<std::mutex> lock(mu_);
    if (pending_.empty() && !stopping_ && idle_ < idle_threads_) {
      ++idle_;
      cv_.wait_for(lock, std::chrono::seconds(30),
                   [this] { return !pending_.empty() || stopping_; });
      --idle_;
    }
    if (pending_.empty()) {
      --threads_;
      // Notified under the lock: shutdown() may return and free this queue
      // as soon as the lock is released.
      cv_.notify_all();
      return;
    }
    fn = std::move(pending_.front());
    pending_.pop_front();
  }
}

void ConnectionThreads::shutdown() {
  std::unique_lock<std::mutex> lock(mu_);
  stopping_ = true;
  cv_.notify_all();
  cv_.wait(lock, [this] { return threads_ == 0 && pending_.empty(); });
}

void ServeConnection(int fd, const ConnectionHooks& hooks) {
  const ConnectionLimits& limits = *hooks.limits;
  Connection c;
  c.fd = fd;
  c.peer = Address(fd, true, nullptr);
  c.phase = Connection::Phase::kHead;
  if (!hooks.registry->Add(&c)) {
    RefuseBusy(fd, hooks.ssl_ctx != nullptr);
    close(fd);
    return;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  t_current = &c;
  c.deadline = Later(Clock::now(), limits.header_timeout);
  SSL* ssl = hooks.ssl_ctx == nullptr ? nullptr : AcceptTls(hooks.ssl_ctx, c);
  if (hooks.ssl_ctx == nullptr || ssl != nullptr) {
    GuardedStream stream(c, limits, ssl);
    for (int count = hooks.max_requests; count > 0 && !hooks.stopping();
         --count) {
      c.phase = Connection::Phase::kIdle;
      const Clock::time_point idle_since = Clock::now();
      if (!stream.WaitReadable(Later(idle_since, limits.keep_alive_timeout)))
        break;
      c.phase_bytes = 0;
      c.phase_limit = limits.max_header_bytes;
      c.deadline = Later(idle_since, limits.header_timeout);
      c.phase = Connection::Phase::kHead;
      bool closed = false;
      const bool written = hooks.process_request(
          stream, count == 1, closed,
          [ssl](httplib::Request& request) { request.ssl = ssl; });
      if (!written || closed || c.close_after) break;
    }
  }
  if (ssl != nullptr) SSL_shutdown(ssl);  // one try: the socket never blocks
  if (c.linger) Linger(fd, limits.linger);
  if (ssl != nullptr) SSL_free(ssl);
  t_current = nullptr;
  hooks.registry->Remove(&c);
  shutdown(fd, SHUT_RDWR);
  close(fd);
}

void InstallGate(httplib::Server& server, const ConnectionLimits& limits,
                 Gate gate) {
  // True when the request comes with a body that cpp-httplib would read.
  auto has_body = [](const httplib::Request& q) {
    if (q.has_header("Transfer-Encoding")) return true;
    if (!q.has_header("Content-Length"))
      return q.method == "POST" || q.method == "PUT" || q.method == "PATCH";
    return std::strtoull(q.get_header_value("Content-Length").c_str(), nullptr,
                         10) > 0;
  };
  server.set_pre_routing_handler(
      [gate, has_body, limits](const httplib::Request& q,
                               httplib::Response& r) {
        Connection* c = CurrentConnection();
        if (c != nullptr) {
          c->phase_bytes = 0;
          c->phase_limit = limits.max_raw_body_bytes;
          c->deadline = Later(Clock::now(), limits.body_timeout);
          c->phase = Connection::Phase::kBody;
        }
        if (!gate(q, r)) return httplib::Server::HandlerResponse::Unhandled;
        if (c != nullptr && has_body(q)) {
          c->close_after = c->linger = true;
          r.set_header("Connection", "close");
        }
        return httplib::Server::HandlerResponse::Handled;
      });
  // A client that waits for "100 Continue" is answered the refusal instead.
  server.set_expect_100_continue_handler(
      [gate](const httplib::Request& q, httplib::Response& r) {
        if (!gate(q, r)) return 100;
        if (Connection* c = CurrentConnection())
          c->close_after = c->linger = true;
        r.set_header("Connection", "close");
        return r.status;
      });
}

}  // namespace qs::server::http
