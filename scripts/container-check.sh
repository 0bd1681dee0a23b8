#!/usr/bin/env bash
# CI's check of the real image: builds the unchanged Dockerfile with podman on a stand-in for
# node:24-bookworm-slim (no compiler, no Python: ../shared/tools/container-base.sh, or
# CONTAINER_BASE=<path to it>), runs the container as an operator would and checks that
#   - it is healthy within 30 s (/healthz, and the image's own HEALTHCHECK command);
#   - the server runs as uid 1000 and the files it writes in /data belong to that user;
#   - a user registers and confirms through the API (the link from the outbox), and
#     `podman exec … npm run admin -- <email>` makes that user an admin;
#   - a comment with a photo survives removing the container and creating a new one on the same
#     volume;
#   - `podman exec … npm run backup -- /data/x` writes a backup with a manifest;
#   - `podman stop` during a trickling authenticated upload ends in under 10 s with exit code 0
#     and the "stopped: database closed" line.
# Prints the image size and how long each step took. Needs root (podman; the base script installs
# podman, runc and mmdebstrap when missing). Containers and the volume are removed at the end.
# CONTAINER_PORT (default 8400) is the port the container listens on (host network).
set -euo pipefail
cd "$(dirname "$0")/.."
# podman without systemd cannot schedule health checks and says so on every run and rm; this
# script runs the image's check itself (podman healthcheck run), so those lines are dropped.
podman() { command podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }

started=$SECONDS
step() { printf '\n--- container check: %s (%ss)\n' "$1" "$((SECONDS - started))"; }
fail() {
  echo "CONTAINER CHECK FAILED: $*" >&2
  exit 1
}

port=${CONTAINER_PORT:-8400}
base=${CONTAINER_BASE:-../shared/tools/container-base.sh}
image=localhost/recensera:ci
name=recensera-check-$$
volume=recensera-check-$$
url="http://127.0.0.1:$port"
work=$(mktemp -d)
trickle_pid=""
cleanup() {
  [ -n "$trickle_pid" ] && kill "$trickle_pid" 2>/dev/null
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

[ -f "$base" ] || fail "no container base script at $base (set CONTAINER_BASE)"
command -v curl >/dev/null || fail "curl is needed"
# JSON field of stdin, e.g. json token; prints nothing when it is missing.
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v?.[k];if(v!==undefined)console.log(typeof v==="string"?v:JSON.stringify(v))})' "$1"; }

step "base image node:24-bookworm-slim (stand-in)"
# The base script copies `npm config get cafile` into the image, and takes only "undefined" for
# unset; npm 11 prints "null". Unset, npm uses the system's bundle: name that one.
case "$(npm config get cafile 2>/dev/null)" in
  '' | null | undefined) export npm_config_cafile=/etc/ssl/certs/ca-certificates.crt ;;
esac
bash "$base" 24

step "podman build of the Dockerfile"
build_started=$SECONDS
podman build --format docker --network host -t "$image" . || fail "the Dockerfile does not build on node:24-bookworm-slim"
echo "build took $((SECONDS - build_started)) s"
size=$(podman image inspect "$image" --format '{{.Size}}')
echo "image size: $((size / 1000000)) MB ($size bytes)"

# Starts the container on the volume and waits until /healthz answers (at most 30 s).
start_container() {
  podman run -d --name "$name" --network host -e PORT="$port" -e PUBLIC_URL="$url" -e LOG_LEVEL=info \
    -v "$volume:/data" "$image" >/dev/null
  local t0=$SECONDS
  until curl -fsS "$url/healthz" >/dev/null 2>&1; do
    [ $((SECONDS - t0)) -lt 30 ] || { podman logs "$name" | tail -n 20; fail "not healthy within 30 s"; }
    [ "$(podman inspect "$name" --format '{{.State.Running}}')" = true ] || { podman logs "$name"; fail "the container exited"; }
    sleep 0.5
  done
  # The image's own HEALTHCHECK command, run now rather than at its first interval.
  podman healthcheck run "$name" >/dev/null || fail "the image's HEALTHCHECK failed"
  [ "$(podman inspect "$name" --format '{{.State.Health.Status}}')" = healthy ] || fail "podman does not report the container healthy"
  echo "healthy after $((SECONDS - t0)) s: $(curl -fsS "$url/healthz")"
}

step "run and health"
podman volume create "$volume" >/dev/null
start_container

step "uid 1000"
[ "$(podman exec "$name" sh -c 'stat -c %u /proc/1')" = 1000 ] || fail "the server does not run as uid 1000"
[ "$(podman exec "$name" stat -c %u /data/recensera.sqlite)" = 1000 ] || fail "/data/recensera.sqlite is not owned by uid 1000"
[ "$(podman exec "$name" id -u)" = 1000 ] || fail "podman exec does not run as uid 1000"

step "register, confirm, npm run admin"
email="check-$$@example.se"
password='Container-check-1!'
status=$(curl -sS -o "$work/register.json" -w '%{http_code}' -H 'content-type: application/json' \
  -d "{\"firstName\":\"Cont\",\"lastName\":\"Ainer\",\"email\":\"$email\",\"password\":\"$password\",\"confirmPassword\":\"$password\"}" \
  "$url/api/users/register")
[ "$status" = 201 ] || { cat "$work/register.json"; fail "register answered $status"; }
# Without SMTP_URL the mail is written to /data/outbox and its links are logged.
confirm_token=""
for _ in $(seq 1 20); do
  confirm_token=$(podman logs "$name" 2>&1 | grep -o 'confirm-email?token=[^"&]*' | tail -n 1 | cut -d= -f2 || true)
  [ -n "$confirm_token" ] && break
  sleep 0.5
done
[ -n "$confirm_token" ] || fail "no confirmation link in the log"
podman exec "$name" sh -c 'ls /data/outbox/*.eml' >/dev/null || fail "no mail in /data/outbox"
curl -fsS -X PUT "$url/api/users/confirm-email?token=$confirm_token" >/dev/null || fail "confirm-email failed"
token=$(curl -fsS -H 'content-type: application/json' -d "{\"email\":\"$email\",\"password\":\"$password\"}" "$url/api/users/logIn" | json token)
[ -n "$token" ] || fail "log in failed"
podman exec "$name" npm run --silent admin -- "$email" | tee "$work/admin.txt"
grep -q "$email is now an admin" "$work/admin.txt" || fail "npm run admin did not make $email an admin"

step "a comment with a photo"
node -e '
  const sharp = require("sharp");
  sharp({ create: { width: 320, height: 240, channels: 3, background: "#2a7" } }).png().toFile(process.argv[1]);
' "$work/photo.png"
business=$(curl -fsS -H "authorization: Bearer $token" \
  -F title='Containerkaféet' -F category='Café' -F description='Kaffe i en container.' -F rate=4 \
  -F 'branches[0][location]=Umeå' -F 'branches[0][address]=Storgatan 1' \
  "$url/api/business/upload" | json _id) || fail "creating a business failed"
[ -n "$business" ] || fail "creating a business returned no id"
comment=$(curl -fsS -H "authorization: Bearer $token" -F text='Bra kaffe, fin bild.' -F businessLocation='Umeå' \
  -F "image=@$work/photo.png;type=image/png" "$url/api/comment/create/$business") || fail "commenting with a photo failed"
photo=$(json image <<<"$comment")
[ -n "$photo" ] || { echo "$comment"; fail "the comment has no photo"; }
curl -fsS -o /dev/null "$url$photo" || fail "the photo $photo is not served"
echo "comment with photo $photo on business $business"

step "npm run backup"
podman exec "$name" npm run --silent backup -- /data/x | tee "$work/backup.txt"
grep -q '^Backup written to /data/x' "$work/backup.txt" || fail "npm run backup did not report a backup"
podman exec "$name" test -f /data/x/manifest.json || fail "the backup has no manifest"

step "podman stop during a trickling upload"
# An authenticated upload announcing 5 MB and sending a byte every 100 ms.
node -e '
  const [port, token] = process.argv.slice(1);
  const socket = require("node:net").connect(Number(port), "127.0.0.1", () => {
    socket.write(["POST /api/images HTTP/1.1", `Host: 127.0.0.1:${port}`, `Authorization: Bearer ${token}`,
      "Content-Type: multipart/form-data; boundary=trickle", "Content-Length: 5000000", "", "--trickle",
      "Content-Disposition: form-data; name=\"image\"; filename=\"slow.png\"", "Content-Type: image/png", "", ""].join("\r\n"));
    setInterval(() => socket.write("x"), 100);
  });
  socket.on("error", () => process.exit(0)).on("close", () => process.exit(0));
' "$port" "$token" &
trickle_pid=$!
for _ in $(seq 1 50); do
  podman logs "$name" 2>&1 | grep '/api/images' | grep -q 'incoming request' && break
  sleep 0.1
done
stop_started=$(date +%s%N)
podman stop -t 10 "$name" >/dev/null
stop_ms=$((($(date +%s%N) - stop_started) / 1000000))
exit_code=$(podman inspect "$name" --format '{{.State.ExitCode}}')
echo "stopped in $stop_ms ms, exit code $exit_code"
podman logs "$name" 2>&1 | tail -n 4
[ "$exit_code" = 0 ] || fail "the container exited with $exit_code on stop"
[ "$stop_ms" -lt 10000 ] || fail "stop took $stop_ms ms (the runtime kills at 10 s)"
podman logs "$name" 2>&1 | grep -q 'stopped: database closed' || fail "no 'stopped: database closed' in the log"
data=$(podman volume inspect "$volume" --format '{{.Mountpoint}}')
[ ! -e "$data/server.lock" ] || fail "server.lock was left in the volume"
wait "$trickle_pid" 2>/dev/null || true
trickle_pid=""

step "remove, re-create on the same volume"
podman rm "$name" >/dev/null
start_container
curl -fsS "$url/api/comment/$business" >"$work/comments.json" || fail "reading the comments after re-creating failed"
grep -q 'Bra kaffe, fin bild.' "$work/comments.json" || fail "the comment did not survive re-creating the container"
grep -qF "$photo" "$work/comments.json" || fail "the comment lost its photo"
curl -fsS -o /dev/null "$url$photo" || fail "the photo is not served after re-creating the container"
podman stop -t 10 "$name" >/dev/null
[ "$(podman inspect "$name" --format '{{.State.ExitCode}}')" = 0 ] || fail "the second container did not stop with exit code 0"
[ ! -e "$data/server.lock" ] || fail "server.lock was left in the volume"

step "done"
echo "container check passed: image $((size / 1000000)) MB, healthy, uid 1000, admin, backup, clean stop, data kept; $((SECONDS - started)) s"
