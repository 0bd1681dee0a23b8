#!/usr/bin/env bash
# The fast host check (scripts/container-check.sh builds and runs the real image; this host has a
# compiler, so only that one proves the image builds without one).
# Mirrors the Dockerfile without a Docker engine: take the built dist/, install production
# dependencies only in a clean directory and prune them as the image does, start the server there
# as the image would, and check that it answers /healthz (with package.json's version, through the
# image's own HEALTHCHECK command), starts empty (DEMO_DATA=0, as the image), runs `npm run admin`,
# `npm run backup` while it runs, keeps health checks out of the info log, stops cleanly on
# SIGTERM, and `npm run restore` brings back exactly the backup.
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
cp scripts/run-cli.mjs scripts/check-native.mjs "$work/scripts/"
# The Dockerfile's prod-deps stage, command for command (install scripts skipped: nothing compiles).
(cd "$work" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
  && rm -rf node_modules/typescript node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/prebuilds/darwin-* node_modules/better-sqlite3/prebuilds/win32-* \
    node_modules/better-sqlite3/prebuilds/linuxmusl-* \
  && node scripts/check-native.mjs)
echo "production node_modules: $(du -sh "$work/node_modules" | cut -f1)"

demo_data=$(sed -n 's/^ *DEMO_DATA=\([0-9]\).*/\1/p' Dockerfile)
[ "$demo_data" = "0" ] || { echo "the Dockerfile must set DEMO_DATA=0"; exit 1; }
(cd "$work" && NODE_ENV=production DATA_DIR="$data" DEMO_DATA="$demo_data" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=info \
  MALLOC_ARENA_MAX=2 node --max-semi-space-size=4 --heap-growing-percent=30 --initial-old-space-size=32 dist/server/index.js) > "$data.log" 2>&1 &
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
[ "$count" -eq 0 ] || { echo "expected an empty directory (DEMO_DATA=0), got $count businesses"; exit 1; }
[ ! -e "$data/demo-accounts.txt" ] || { echo "demo accounts were made with DEMO_DATA=0"; exit 1; }
curl -fsS "http://127.0.0.1:$port/" | grep -q '<div id="root">' || { echo "client not served"; exit 1; }
(cd "$work" && DATA_DIR="$data" PORT="$port" npm run --silent admin -- smoke-admin@example.se) | grep -q "http://localhost:$port/reset-password?token=" \
  || { echo "npm run admin did not work from the production install"; exit 1; }
cli() { (cd "$work" && DATA_DIR="$data" PORT="$port" npm run --silent "$@" 2>&1) || true; }
expect_out() { grep -q "$2" <<<"$1" || { echo "$3:"; echo "$1"; exit 1; }; }

# A backup while the site runs; then a write it must not contain; restore refuses while it runs.
expect_out "$(cli backup -- "$data/backups/smoke")" "^Backup written to $data/backups/smoke" "npm run backup failed"
[ -f "$data/backups/smoke/manifest.json" ] || { echo "backup has no manifest"; exit 1; }
expect_out "$(cli admin -- after-backup@example.se)" "Created a confirmed admin account" "admin after the backup failed"
expect_out "$(cli restore -- "$data/backups/smoke")" "^Not restored: A Recensera server" "restore did not refuse while the server runs"

kill -TERM "$pid"
for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$pid" 2>/dev/null; then echo "server did not stop on SIGTERM"; exit 1; fi
wait "$pid" && status=0 || status=$?
pid=""
[ "$status" -eq 0 ] || { echo "server exited with $status on SIGTERM"; cat "$data.log"; exit 1; }

# Restored: the admin made before the backup is there, the one made after it is not.
expect_out "$(cli restore -- "$data/backups/smoke")" "^Restored the backup" "npm run restore failed"
expect_out "$(cli admin -- smoke-admin@example.se)" "is already an admin" "the restore lost what the backup had"
expect_out "$(cli admin -- after-backup@example.se)" "Created a confirmed admin account" "the restore kept a write made after the backup"
rm -f "$data.log"
echo "image smoke test passed: healthz $version ok, empty start, admin, backup and restore ok, clean shutdown"
