#!/usr/bin/env bash
# Mirrors the Dockerfile without a Docker engine: take the built dist/, install production
# dependencies only in a clean directory, start the server there as the image would, and check
# that it answers /healthz and serves the demo directory, then stops cleanly on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/server/index.js ] || npm run build

work=$(mktemp -d)
data=$(mktemp -d)
port=${SMOKE_PORT:-8391}
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work" "$data"
}
trap cleanup EXIT

cp -r dist package.json package-lock.json "$work/"
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)

(cd "$work" && NODE_ENV=production DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn \
  node --max-semi-space-size=4 --optimize-for-size dist/server/index.js) > "$data.log" 2>&1 &
pid=$!

for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || { echo "health check failed"; cat "$data.log"; exit 1; }

count=$(curl -fsS "http://127.0.0.1:$port/api/business" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).length))')
[ "$count" -ge 24 ] || { echo "expected 24+ demo businesses, got $count"; exit 1; }
curl -fsS "http://127.0.0.1:$port/" | grep -q '<div id="root">' || { echo "client not served"; exit 1; }

kill -TERM "$pid"
for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$pid" 2>/dev/null; then echo "server did not stop on SIGTERM"; exit 1; fi
wait "$pid" && status=0 || status=$?
pid=""
[ "$status" -eq 0 ] || { echo "server exited with $status on SIGTERM"; cat "$data.log"; exit 1; }
rm -f "$data.log"
echo "image smoke test passed: healthz ok, $count businesses, clean shutdown"
