# Recensera: one container, one process on :8000, data in the /data volume.
# scripts/image-smoke.sh runs the same steps without Docker in CI.
#   docker build -t recensera:0.1.0 .      (VERSION below is package.json's; the smoke test checks)

# No compiler, no Python: nothing here compiles. better-sqlite3, argon2 and sharp ship prebuilt
# binaries for linux x64 and arm64, esbuild and Vite's rolldown come as per-platform packages. But
# npm still runs `node-gyp rebuild` for any package with a binding.gyp (better-sqlite3) and
# argon2's install script may fall back to node-gyp, so install scripts are skipped
# (--ignore-scripts) and scripts/check-native.mjs proves that every native module loads from its
# prebuilt binary. (The other install scripts are esbuild's optional check and @scarf/scarf's
# analytics.)
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/check-native.mjs ./scripts/
RUN npm ci --ignore-scripts --no-audit --no-fund && node scripts/check-native.mjs --build
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# Only what the server loads: the client's packages are devDependencies, bundled into dist/client
# at build time. Then out go typescript (a peer of @trpc/server, for its types only), and
# better-sqlite3's C sources and its binaries for macOS, Windows and musl. The check runs again on
# what is left.
COPY scripts/check-native.mjs ./scripts/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/prebuilds/darwin-* node_modules/better-sqlite3/prebuilds/win32-* \
    node_modules/better-sqlite3/prebuilds/linuxmusl-* \
  && node scripts/check-native.mjs

FROM node:24-bookworm-slim
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="Recensera" \
      org.opencontainers.image.description="Community reviews of everyday businesses: one Node.js process, one SQLite file" \
      org.opencontainers.image.version="${VERSION}"
# DEMO_DATA=0: a public site never starts with demo accounts (npm start's default is 1).
# MALLOC_ARENA_MAX=2: at most two malloc arenas, as npm start (scripts/server-flags.ts, SERVER_ENV).
ENV NODE_ENV=production \
    PORT=8000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    DEMO_DATA=0 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json and run-cli.mjs: `docker exec <container> npm run admin -- you@example.se`.
COPY package.json ./
COPY scripts/run-cli.mjs ./scripts/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8000
# Follows PORT when it is changed with -e PORT=…; /healthz answers {"ok":true,"version":"…"}.
# Every 10 s, so Docker reports "healthy" about 10 s after the start (the first probe waits for one
# interval; the server is up in 1–3 s).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=30", "--initial-old-space-size=32", "dist/server/index.js"]
