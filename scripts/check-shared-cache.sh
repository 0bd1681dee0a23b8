#!/usr/bin/env bash
# The production build behind Debian's nginx with plain proxy_cache settings (issue 32 item 6):
# visitors' reads come from the cache, a signed-in user's replies are never stored or served to
# anyone else, a new comment reaches visitors within the promised seconds; prints the throughput
# direct and through nginx (scripts/check-shared-cache.ts). Needs a build (npm run build, or
# DIST=<dir>); installs Debian's nginx when missing and apt-get can, else it is SKIPPED, and
# Debian's wrk to measure with (autocannon without it).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nginx >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null 2>&1 || true
  fi
  command -v nginx >/dev/null || { echo "SKIPPED: nginx is not installed and could not be installed"; exit 0; }
fi
# wrk (C, keep-alive) measures nginx's rate; autocannon (Node, one thread) saturates first.
if ! command -v wrk >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 || true; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk >/dev/null 2>&1 || true; }
fi
[ -f "${DIST:-dist}/server/index.js" ] || { echo "no build at ${DIST:-dist} (npm run build first)"; exit 1; }
echo "$(nginx -v 2>&1 | sed 's/.*version: //') in front of ${DIST:-dist}"
exec npx tsx scripts/check-shared-cache.ts
