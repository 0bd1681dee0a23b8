#!/usr/bin/env bash
# Builds client and server into DIR (default dist) — lets parallel work build without clobbering.
set -euo pipefail
out=${1:-dist}
npx vite build --outDir "$(realpath -m "$out")/client" --emptyOutDir --logLevel warn
node scripts/precompress.mjs "$out/client"
# Packages stay imports, except drizzle-orm, which is bundled (scripts/server-externals.ts).
externals=$(node scripts/server-externals.ts)
# shellcheck disable=SC2086 # one flag per word
npx esbuild server/index.ts --bundle --platform=node --format=esm --target=node24 $externals --outfile="$out/server/index.js" --log-level=warning
# Operator commands (npm run admin …), bundled like the server so a production install runs them.
for cli in server/cli/*.ts; do
  case "$cli" in *.test.ts) continue ;; esac
  name=$(basename "$cli" .ts)
  # shellcheck disable=SC2086
  npx esbuild "$cli" --bundle --platform=node --format=esm --target=node24 $externals --outfile="$out/server/cli-$name.js" --log-level=warning
done
mkdir -p "$out/db" && rm -rf "$out/db/migrations" && cp -r db/migrations "$out/db/migrations"
