#!/usr/bin/env bash
# Commit subjects say what changed in at most 72 characters (reasons and measurements go in the
# body). Checks the commits after BASE (default: origin/main, else the last 50), or, given
# --message FILE, one commit message (the commit-msg hook in .githooks/ does that).
set -euo pipefail
max=72
if [ "${1:-}" = "--message" ]; then
  subject=$(grep -v '^#' "$2" | head -n 1)
  if [ "${#subject}" -gt "$max" ]; then
    echo "commit subject is ${#subject} characters; at most $max: $subject" >&2
    exit 1
  fi
  exit 0
fi
base=${1:-}
if [ -z "$base" ]; then
  if git rev-parse -q --verify origin/main >/dev/null; then base=origin/main; else base=HEAD~50; fi
fi
bad=0
while IFS= read -r line; do
  subject=${line#* }
  if [ "${#subject}" -gt "$max" ]; then
    echo "${line%% *} ${#subject} characters: $subject" >&2
    bad=$((bad + 1))
  fi
done < <(git log --no-merges --format='%h %s' "$base..HEAD")
if [ "$bad" -gt 0 ]; then
  echo "$bad commit subject(s) over $max characters after $base" >&2
  exit 1
fi
echo "every commit subject after $base is at most $max characters"
