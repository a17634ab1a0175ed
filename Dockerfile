# Production image: the server as a pruned `pnpm deploy --prod` bundle (production dependencies only, no dev tools,
# no second Node binary) on the base image's Node, run as the unprivileged `node` user.
#   docker build -t switchboard .
#   docker run -e DATABASE_URL=postgres://… -e MIGRATE_ON_START=true -p 3000:3000 switchboard
# compose.yaml runs the full stack (PostgreSQL, Redis, a one-shot migrate service, two API replicas).
# tests/ops/bundle.test.ts builds the same bundle outside Docker and boots it against a real database.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# CI=true: no progress bars or prompts; TURBO_TELEMETRY_DISABLED=1: turbo sends nothing and prints no notice about it.
ENV CI=true TURBO_TELEMETRY_DISABLED=1
RUN npm install --global --silent pnpm@10.34.9
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc turbo.json tsconfig.base.json ./
COPY patches patches
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY packages/openapi/package.json packages/openapi/
COPY packages/mcp/package.json packages/mcp/
COPY apps/server/package.json apps/server/
COPY tests/package.json tests/
RUN pnpm install --frozen-lockfile
COPY packages packages
COPY apps apps
COPY scripts scripts
RUN pnpm exec turbo run build --filter=@switchboard/server... \
 && scripts/bundle-server /bundle

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /bundle /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node is PID 1 and handles SIGTERM itself: drain requests, stop the job worker, close the pool, exit 0.
# A 16 MB cap on V8's young generation (as `pnpm start`): left alone, Node 24 grows it under load, which costs resident
# memory for no measurable throughput (docs/benchmarks.md, "Memory").
CMD ["node", "--max-semi-space-size=16", "dist/main.js"]
