#!/usr/bin/env bash
# Checks the reverse-proxy examples in docs/operations/reverse-proxy.md as they are written
# there: the ```caddy block with `caddy validate`, the ```nginx block with `nginx -t` (inside an
# http {} of a minimal nginx.conf, with a self-signed certificate made by openssl in place of
# certbot's files). Installs Debian's nginx and caddy packages when missing and apt-get can;
# a proxy that cannot be installed is reported and skipped, a failing example fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
doc=docs/operations/reverse-proxy.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The body of the first fenced block of language $1 in the doc.
block() { awk -v lang="$1" '$0 == "```" lang { inside = 1; next } inside && /^```/ { exit } inside { print }' "$doc"; }

have() {
  command -v "$1" >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1 || true
  fi
  command -v "$1" >/dev/null || { echo "SKIPPED: $1 is not installed and could not be installed"; return 1; }
}

checked=0
block caddy > "$work/Caddyfile"
[ -s "$work/Caddyfile" ] || { echo "no \`\`\`caddy block in $doc"; exit 1; }
if have caddy caddy; then
  # Caddy's storage (certificates) goes to the temporary folder, not the user's home.
  HOME="$work" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" \
    caddy validate --config "$work/Caddyfile" --adapter caddyfile > "$work/caddy.log" 2>&1 \
    || { cat "$work/caddy.log"; echo "the Caddy example in $doc does not validate"; exit 1; }
  echo "caddy $(caddy version | cut -d' ' -f1): the Caddy example is valid"
  checked=$((checked + 1))
fi

block nginx > "$work/site.conf"
[ -s "$work/site.conf" ] || { echo "no \`\`\`nginx block in $doc"; exit 1; }
if have nginx nginx; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=reviews.example.se \
    -keyout "$work/privkey.pem" -out "$work/fullchain.pem" >/dev/null 2>&1
  sed -i "s#/etc/letsencrypt/live/reviews.example.se/#$work/#g" "$work/site.conf"
  mkdir -p "$work/logs" "$work/temp"
  cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/logs/error.log;
events {}
http {
    access_log off;
    client_body_temp_path $work/temp/body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;
    include $work/site.conf;
}
CONF
  nginx -t -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" > "$work/nginx.log" 2>&1 \
    || { cat "$work/nginx.log"; echo "the nginx example in $doc fails nginx -t"; exit 1; }
  if grep -q '\[warn\]' "$work/nginx.log"; then cat "$work/nginx.log"; echo "nginx -t warns about the example in $doc"; exit 1; fi
  echo "$(nginx -v 2>&1 | sed 's/.*version: //'): the nginx example passes nginx -t"
  checked=$((checked + 1))
fi
echo "reverse-proxy examples checked: $checked of 2"
