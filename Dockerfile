# One multi-stage build for every crudbench binary. Each app has its own
# target, so each runs as its own process with its own name (the bench finds
# them by executable name):
#
#   docker build --target rest .      (also: graphql, htmx, grpc, amqp, dbctl, bench)
#   docker build --target bench --build-arg COMMIT=$(git rev-parse --short=12 HEAD) .
#
# docker compose builds all of them (see docker-compose.yml); the Node.js
# apps are built from Dockerfile.node.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ENV CGO_ENABLED=0
# COMMIT is the commit being built (docker compose passes it from the
# environment: COMMIT=$(git rev-parse --short=12 HEAD)). .git is not in the
# build context, so Go cannot stamp it by itself; the bench writes it into
# every report, empty meaning unknown.
ARG COMMIT=
RUN go build -trimpath -ldflags="-s -w" -o /out/ ./apps/rest ./apps/graphql ./apps/htmx ./apps/grpc ./apps/amqp ./db/dbctl \
 && go build -trimpath -ldflags="-s -w -X crudbench/bench/runner.buildCommit=${COMMIT}" -o /out/bench ./bench

# busybox gives the health checks a wget; the binaries are static.
FROM busybox:1.37 AS runtime
USER 65532:65532

FROM runtime AS rest
COPY --from=build /out/rest /usr/local/bin/rest
EXPOSE 8081
ENV ADDR=:8081
HEALTHCHECK --interval=5s --timeout=10s --retries=10 CMD wget -q -O /dev/null http://127.0.0.1:8081/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/rest"]

FROM runtime AS graphql
COPY --from=build /out/graphql /usr/local/bin/graphql
EXPOSE 8082
ENV ADDR=:8082
HEALTHCHECK --interval=5s --timeout=10s --retries=10 CMD wget -q -O /dev/null http://127.0.0.1:8082/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/graphql"]

FROM runtime AS htmx
COPY --from=build /out/htmx /usr/local/bin/htmx
EXPOSE 8083
ENV ADDR=:8083
HEALTHCHECK --interval=5s --timeout=10s --retries=10 CMD wget -q -O /dev/null http://127.0.0.1:8083/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/htmx"]

# busybox has no gRPC client: the app's own -healthcheck asks its health
# service (SERVING while the database answers), as wget asks /healthz.
FROM runtime AS grpc
COPY --from=build /out/grpc /usr/local/bin/grpc
EXPOSE 8087
ENV ADDR=:8087
HEALTHCHECK --interval=5s --timeout=10s --retries=10 CMD ["/usr/local/bin/grpc", "-healthcheck"]
ENTRYPOINT ["/usr/local/bin/grpc"]

# ADDR is the admin port: the app's requests come from its queue on the
# broker (AMQP_URL), and /readyz says it consumes it and the database answers.
FROM runtime AS amqp
COPY --from=build /out/amqp /usr/local/bin/amqp
EXPOSE 8092
ENV ADDR=:8092
HEALTHCHECK --interval=5s --timeout=10s --retries=10 CMD wget -q -O /dev/null http://127.0.0.1:8092/readyz || exit 1
ENTRYPOINT ["/usr/local/bin/amqp"]

FROM runtime AS dbctl
COPY --from=build /out/dbctl /usr/local/bin/dbctl
ENTRYPOINT ["/usr/local/bin/dbctl"]
CMD ["seed"]

FROM runtime AS bench
COPY --from=build /out/bench /usr/local/bin/bench
WORKDIR /results
ENTRYPOINT ["/usr/local/bin/bench"]
