# Navette in a container: the demo coverage by default, your coverages with a mounted configuration.
#
#   docker build -t navette .
#   docker run --init -p 9090:9090 navette
#   docker run --init -p 9090:9090 -v /srv/transit:/data:ro navette serve --config /data/navette.json
#
# --init gives the process a proper PID 1, so that a stop signal also ends a server still loading.

# The official Node image on Debian (bookworm): Debian's own nodejs package is older than the
# engines field asks (trixie ships Node 20.19; Navette needs >= 20.20), so the image keeps Node's
# Debian build. This build is not run by the tests (no Docker daemon there): a test checks its context.
# Sharded behind nginx: see deploy/compose/docker-compose.yml and docs/scaling.md.
ARG NODE_VERSION=20

# --- build: every dependency, the TypeScript compiler, dist/ ---
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
RUN npx tsc -p tsconfig.json

# --- runtime: production dependencies and the compiled server only ---
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    LOG_LEVEL=info
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY data/demo ./data/demo
# the explorer page served at / (Leaflet comes with the production dependencies)
COPY explorer ./explorer
# the image's unprivileged user (uid 1000); the files stay root's, read-only to it
USER node
EXPOSE 9090
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9090/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve", "--config", "data/demo/navette.json"]
