# Two-stage image of qs_server (and qsolve, for health checks) on Debian bookworm: the build stage installs
# the -dev packages with the project's own script and builds; the runtime stage carries only the shared
# libraries and runs as an unprivileged user. `podman build .` / `docker build .` builds from source. The
# `prebuilt` target takes the two binaries from .prebuilt/ instead, copied there from a Release build on a
# Debian bookworm host (deploy/container-test.sh does so in the test command, which has built them already).
FROM debian:bookworm AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN scripts/install-deps.sh --build-only && rm -rf /var/lib/apt/lists/*
COPY . .
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release -DQS_BUILD_TESTS=OFF -DQS_BUILD_BENCHMARKS=OFF \
 && cmake --build /build -j"$(nproc)" --target qs_server qsolve

# The shared libraries of qs_server and qsolve (deploy/container-test.sh checks with ldd that nothing is
# missing); libcurl4 and ca-certificates serve backends that call remote HTTPS APIs; libcpp-httplib0.11 the
# HTTP/JSON front (--http_address, off unless given).
FROM debian:bookworm AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libgrpc++1.51 libprotobuf32 libprometheus-cpp-pull1.0 libspdlog1.10 libfmt9 libabsl20220623 \
      libcurl4 ca-certificates libcpp-httplib0.11 libnlopt0 \
 && rm -rf /var/lib/apt/lists/*
USER 65534:65534
EXPOSE 50051 9464
HEALTHCHECK --interval=10s --timeout=3s CMD ["/usr/local/bin/qsolve", "health", "--addr", "127.0.0.1:50051"]
ENTRYPOINT ["/usr/local/bin/qs_server"]
CMD ["--address=0.0.0.0:50051", "--metrics_address=0.0.0.0:9464"]

# podman build --target prebuilt . (the build stage is skipped)
FROM runtime AS prebuilt
COPY .prebuilt/qs_server .prebuilt/qsolve /usr/local/bin/

# The default image: the binaries of the build stage.
FROM runtime
COPY --from=build /build/server/qs_server /build/clients/qsolve /usr/local/bin/
