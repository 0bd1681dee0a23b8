#!/bin/sh
# npm start: builds only when a source is newer than the build, then becomes the server (exec),
# so the SIGTERM that npm passes on reaches node itself instead of a shell that would leave the
# server running. The Node flags and environment are those of scripts/server-flags.ts.
set -e
cd "$(dirname "$0")/.."
built=dist/server/index.js
if [ ! -f "$built" ] || [ -n "$(find client server db scripts package.json package-lock.json vite.config.ts -newer "$built" -print 2>/dev/null | head -n 1)" ]; then
  npm run build
fi
# At most two malloc arenas (SERVER_ENV in scripts/server-flags.ts): the memory freed by upload and
# compression threads goes back to a shared pool instead of staying in one arena per thread.
export MALLOC_ARENA_MAX=2
exec node --max-semi-space-size=4 --heap-growing-percent=30 --initial-old-space-size=32 dist/server/index.js
