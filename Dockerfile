# Production image. Build: docker build -t switchboard .   Run: docker run -e DATABASE_URL=postgres://… -p 3000:3000 switchboard
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN corepack enable
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc turbo.json tsconfig.base.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY packages/openapi/package.json packages/openapi/
COPY apps/server/package.json apps/server/
COPY tests/package.json tests/
RUN pnpm install --frozen-lockfile
COPY packages packages
COPY apps apps
RUN pnpm exec turbo run build --filter=@switchboard/server...

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 SWITCHBOARD_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# main.ts handles SIGTERM: drain requests, stop workers, close the pool.
CMD ["node", "apps/server/dist/main.js"]
