#!/usr/bin/env bash
# Mirrors the Dockerfile without a Docker engine: take the built dist/, install production
# dependencies only in a clean directory and prune them as the image does, start the server there
# as the image would, and check that it answers /healthz (with package.json's version, through the
# image's own HEALTHCHECK command), serves the demo directory, runs `npm run admin`, keeps health
# checks out of the info log, and stops cleanly on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/server/index.js ] || npm run build

version=$(node -p 'require("./package.json").version')
node_major=$(node -p 'process.versions.node.split(".")[0]')
image_major=$(sed -n 's/^FROM node:\([0-9]*\)-.*/\1/p' Dockerfile | sort -u)
[ "$image_major" = "$node_major" ] || { echo "Dockerfile uses node:$image_major, this test runs on Node $node_major"; exit 1; }
grep -qx "ARG VERSION=$version" Dockerfile || { echo "Dockerfile's ARG VERSION is not package.json's $version"; exit 1; }

work=$(mktemp -d)
data=$(mktemp -d)
port=${SMOKE_PORT:-8391}
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work" "$data"
}
trap cleanup EXIT

mkdir -p "$work/scripts"
cp -r dist package.json package-lock.json "$work/"
cp scripts/run-cli.mjs "$work/scripts/"
# The Dockerfile's prod-deps stage, command for command.
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --loglevel=error \
  && rm -rf node_modules/typescript node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/prebuilds/darwin-* node_modules/better-sqlite3/prebuilds/win32-*)
echo "production node_modules: $(du -sh "$work/node_modules" | cut -f1)"

(cd "$work" && NODE_ENV=production DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=info \
  node --max-semi-space-size=4 --optimize-for-size dist/server/index.js) > "$data.log" 2>&1 &
pid=$!

for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
health=$(curl -fsS "http://127.0.0.1:$port/healthz") || { echo "health check failed"; cat "$data.log"; exit 1; }
[ "$health" = "{\"ok\":true,\"version\":\"$version\"}" ] || { echo "unexpected /healthz reply: $health"; exit 1; }
healthcheck=$(sed -n '/^HEALTHCHECK/,/CMD/{s/^ *CMD //p}' Dockerfile)
(cd "$work" && PORT="$port" sh -c "$healthcheck") || { echo "the Dockerfile's HEALTHCHECK failed on PORT=$port"; exit 1; }
grep -q "Recensera is up on http://127.0.0.1:$port" "$data.log" || { echo "start line does not name the address"; cat "$data.log"; exit 1; }
if grep -q '"url":"/healthz"' "$data.log"; then echo "health checks are logged at info"; exit 1; fi

count=$(curl -fsS "http://127.0.0.1:$port/api/business" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).length))')
[ "$count" -ge 24 ] || { echo "expected 24+ demo businesses, got $count"; exit 1; }
curl -fsS "http://127.0.0.1:$port/" | grep -q '<div id="root">' || { echo "client not served"; exit 1; }
(cd "$work" && DATA_DIR="$data" PORT="$port" npm run --silent admin -- smoke-admin@example.se) | grep -q "http://localhost:$port/reset-password?token=" \
  || { echo "npm run admin did not work from the production install"; exit 1; }

kill -TERM "$pid"
for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$pid" 2>/dev/null; then echo "server did not stop on SIGTERM"; exit 1; fi
wait "$pid" && status=0 || status=$?
pid=""
[ "$status" -eq 0 ] || { echo "server exited with $status on SIGTERM"; cat "$data.log"; exit 1; }
rm -f "$data.log"
echo "image smoke test passed: healthz $version ok, $count businesses, admin CLI ok, clean shutdown"
