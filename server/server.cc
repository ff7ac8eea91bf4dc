// Server assembly: pools, registries, engine, admission, metrics exposer, gRPC
// with health and reflection, and graceful drain.
#include "server/server.h"

#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "core/backend/status_monitor.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "prometheus/exposer.h"
#include "server/admission.h"
#include "server/metrics.h"
#include "server/service_context.h"
#include "server/solver_service.h"
#include "spdlog/spdlog.h"

namespace qs::server {

struct Server::Impl {
  ServerOptions options;
  std::unique_ptr<WorkerPool> compute_pool;
  std::unique_ptr<WorkerPool> request_pool;
  BackendRegistry backends;
  // Keeps remote backends' availability fresh off the request path.
  std::unique_ptr<BackendStatusMonitor> status_monitor;
  std::unique_ptr<CompileCache> compile_cache;
  std::unique_ptr<SolveEngine> engine;
  std::unique_ptr<Admission> admission;
  std::unique_ptr<ServerMetrics> metrics;
  TokenAuthorizer auth;
  std::unique_ptr<prometheus::Exposer> exposer;
  ServiceContext context;
  std::unique_ptr<SolverService> service;
  std::unique_ptr<grpc::Server> grpc_server;
  std::unique_ptr<http::HttpFront> http_front;
  // Hands free heap pages back every memory_trim_interval: glibc keeps what
  // bursts of calls freed in its per-thread arenas, so without it resident
  // memory creeps up to the high-water mark of every arena and stays there.
  absl::Notification stop_trimming;
  std::thread trimmer;
  int port = 0;
  int metrics_port = 0;
  std::string host;

  absl::Mutex drain_mu;
  bool drained ABSL_GUARDED_BY(drain_mu) = false;
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() {
  Drain(absl::ZeroDuration());
  impl_->stop_trimming.Notify();
  if (impl_->trimmer.joinable()) impl_->trimmer.join();
  // Pools join their threads here: requests first (they wait on compute tasks),
  // then compute.
  impl_->request_pool.reset();
  impl_->compute_pool.reset();
}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerOptions& options) {
  // spdlog makes its registry on first use; make it here, before any thread
  // of the server can log, so that every thread starts after it exists.
  spdlog::default_logger_raw();
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  const int cores =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int workers =
      options.worker_threads > 0 ? options.worker_threads : cores;
  const int requests = options.max_concurrent_requests > 0
                           ? options.max_concurrent_requests
                           : 2 * workers;
  impl->compute_pool = std::make_unique<WorkerPool>(workers);
  impl->request_pool = std::make_unique<WorkerPool>(requests);
  BackendOptions backend_options = options.backends;
  backend_options.pool = impl->compute_pool.get();
  if (absl::Status s = RegisterBuiltinBackends(impl->backends, backend_options);
      !s.ok())
    return s;
  impl->status_monitor =
      std::make_unique<BackendStatusMonitor>(&impl->backends);
  if (options.compile_cache.max_entries > 0) {
    impl->compile_cache = std::make_unique<CompileCache>(options.compile_cache);
  }
  impl->engine =
      std::make_unique<SolveEngine>(&BuiltinCompilers(), &impl->backends,
                                    options.limits, impl->compile_cache.get());
  impl->admission =
      std::make_unique<Admission>(requests, options.max_queued_requests);
  impl->metrics = std::make_unique<ServerMetrics>(&impl->backends);
  WorkerPool* compute = impl->compute_pool.get();
  Admission* admission = impl->admission.get();
  impl->metrics->SetLiveGauges({
      .active_requests =
          [admission] { return static_cast<double>(admission->running()); },
      .queued_requests =
          [admission] { return static_cast<double>(admission->queued()); },
      .pool_queued_tasks =
          [compute] { return static_cast<double>(compute->queued_tasks()); },
      .pool_running_tasks =
          [compute] { return static_cast<double>(compute->running_tasks()); },
      .pool_threads =
          [compute] { return static_cast<double>(compute->num_threads()); },
      .pool_active_groups =
          [compute] { return static_cast<double>(compute->active_groups()); },
      .compile_cache =
          impl->compile_cache == nullptr
              ? std::function<CompileCacheStats()>()
              : [cache = impl->compile_cache.get()] { return cache->stats(); },
  });
  if (!options.metrics_address.empty()) {
    try {
      impl->exposer =
          std::make_unique<prometheus::Exposer>(options.metrics_address);
    } catch (const std::exception& e) {
      // civetweb reports a busy or bad address by throwing; keep it inside this
      // layer.
      return absl::UnavailableError(absl::StrCat("cannot serve /metrics on ",
                                                 options.metrics_address, ": ",
                                                 e.what()));
    }
    impl->exposer->RegisterCollectable(impl->metrics->registry());
    impl->exposer->RegisterCollectable(impl->metrics->live_gauges());
    const auto ports = impl->exposer->GetListeningPorts();
    impl->metrics_port = ports.empty() ? 0 : ports.front();
  }
  if (!options.auth_token_file.empty()) {
    auto auth = TokenAuthorizer::FromFile(options.auth_token_file);
    if (!auth.ok()) return auth.status();
    impl->auth = *std::move(auth);
  }
  auto credentials = MakeServerCredentials(options.tls);
  if (!credentials.ok()) return credentials.status();
  impl->context.auth = &impl->auth;
  impl->context.engine = impl->engine.get();
  impl->context.request_pool = impl->request_pool.get();
  impl->context.admission = impl->admission.get();
  impl->context.metrics = impl->metrics.get();
  impl->context.max_batch_in_flight =
      options.max_batch_in_flight > 0 ? options.max_batch_in_flight : requests;
  impl->service = std::make_unique<SolverService>(&impl->context);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.address, *credentials, &impl->port);
  builder.RegisterService(impl->service.get());
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  builder.AddChannelArgument(
      GRPC_ARG_KEEPALIVE_TIME_MS,
      static_cast<int>(absl::ToInt64Milliseconds(options.keepalive_time)));
  builder.AddChannelArgument(
      GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
      static_cast<int>(absl::ToInt64Milliseconds(options.keepalive_timeout)));
  // Clients may ping every 10 s without data in flight; more often is abuse.
  builder.AddChannelArgument(
      GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  impl->grpc_server = builder.BuildAndStart();
  if (impl->grpc_server == nullptr || impl->port == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.address));
  }
  if (options.instance_name.empty()) {
    char hostname[256] = {0};
    gethostname(hostname, sizeof(hostname) - 1);
    impl->context.instance_name = absl::StrCat(hostname, ":", impl->port);
  } else {
    impl->context.instance_name = options.instance_name;
  }
  // Before the trimmer thread: an error return must leave nothing running.
  if (!options.http.address.empty()) {
    auto front =
        http::HttpFront::Start(options.http, options.tls, &impl->context);
    if (!front.ok()) return front.status();
    impl->http_front = *std::move(front);
  }
#ifdef __GLIBC__
  if (options.memory_trim_interval > absl::ZeroDuration()) {
    Impl* raw = impl.get();
    impl->trimmer = std::thread([raw, interval = options.memory_trim_interval] {
      while (!raw->stop_trimming.WaitForNotificationWithTimeout(interval))
        malloc_trim(0);
    });
  }
#endif
  auto* health = impl->grpc_server->GetHealthCheckService();
  health->SetServingStatus(true);
  health->SetServingStatus(v1::Solver::service_full_name(), true);
  std::vector<std::string> parts =
      absl::StrSplit(options.address, absl::MaxSplits(':', 1));
  impl->host =
      parts[0] == "0.0.0.0" || parts[0].empty() ? "127.0.0.1" : parts[0];
  if (options.address.rfind("[", 0) == 0) {
    impl->host = options.address.substr(0, options.address.rfind(':'));
  }
  spdlog::info(
      "qs_server listening on {} (port {}), metrics on {} (port {}), {} "
      "compute threads, {} request "
      "threads, {} queued, tls {}, token {}",
      options.address, impl->port,
      options.metrics_address.empty() ? "-" : options.metrics_address,
      impl->metrics_port, workers, requests, options.max_queued_requests,
      options.tls.cert_file.empty()
          ? "off"
          : (options.tls.client_ca_file.empty() ? "on" : "mutual"),
      impl->auth.enabled() ? "required" : "off");
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

std::string Server::address() const {
  return absl::StrCat(impl_->host, ":", impl_->port);
}
int Server::port() const { return impl_->port; }
int Server::metrics_port() const { return impl_->metrics_port; }
int Server::http_port() const {
  return impl_->http_front ? impl_->http_front->port() : 0;
}

void Server::Drain(absl::Duration grace) {
  {
    absl::MutexLock lock(&impl_->drain_mu);
    if (impl_->drained) return;
    impl_->drained = true;
  }
  spdlog::info("draining: {} running, {} queued; grace {}",
               impl_->admission->running(), impl_->admission->queued(),
               absl::FormatDuration(grace));
  auto* health = impl_->grpc_server->GetHealthCheckService();
  health->SetServingStatus(false);
  health->SetServingStatus(v1::Solver::service_full_name(), false);
  impl_->admission->StartDraining();
  if (!impl_->admission->WaitUntilIdle(absl::Now() + grace)) {
    spdlog::warn(
        "grace period over: stopping {} running solves, refusing {} queued",
        impl_->admission->running(), impl_->admission->queued());
    // In this order: a solve that starts after the interrupt sees the
    // closed queue (RunAdmittedSolve).
    impl_->admission->CloseQueue();
    impl_->context.InterruptAll(StopReason::kShutdown);
    impl_->admission->WaitUntilIdle(absl::Now() + absl::Seconds(5));
  }
  // Streams still open (a client not reading) are cancelled after one more
  // second.
  impl_->grpc_server->Shutdown(std::chrono::system_clock::now() +
                               std::chrono::seconds(1));
  // The HTTP front answered 503 while draining; its last streams have ended.
  if (impl_->http_front) impl_->http_front->Stop();
  spdlog::info("drained");
}

void Server::Wait() { impl_->grpc_server->Wait(); }

}  // namespace qs::server
