#!/usr/bin/env bash
# The gateway's image, built with no Docker daemon (deploy/image/build.sh: podman build, chroot isolation)
# and then started as a container runtime would, from its own unpacked layers: the image's entrypoint,
# environment, user and working directory, in new mount and PID namespaces (unshare) with the unpacked
# filesystem as root (unshare's chroot). It must answer /health and a query on its embedded engine.
# Skips (exit 0, saying why) where podman, unshare or a JDK 25 is missing or root is needed and absent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then echo "image-check: skipped, unshare --mount and chroot need root"; exit 0; fi
command -v podman >/dev/null || { apt-get update -qq && apt-get install -y -qq podman; } >/dev/null 2>&1 || true
command -v unshare >/dev/null || { echo "image-check: skipped, unshare is missing (util-linux)"; exit 0; }
work=$(mktemp -d)
server=
cleanup() {
  # unshare --fork does not pass SIGTERM on: stop its child (the image's entrypoint), then unshare ends
  [ -n "$server" ] && { pkill -TERM -P "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
status=0
bash deploy/image/build.sh "$work/image.tar" > "$work/build.log" 2>&1 || status=$?
if [ "$status" -eq 3 ]; then echo "image-check: $(tail -1 "$work/build.log")"; exit 0; fi
if [ "$status" -ne 0 ]; then cat "$work/build.log" >&2; exit "$status"; fi
tail -1 "$work/build.log"

# Unpack: the OCI layout's manifest names the config and the layers, applied in order (whiteouts too).
mkdir -p "$work/oci" "$work/rootfs"
tar -xf "$work/image.tar" -C "$work/oci"
node - "$work/oci" > "$work/image.env" <<'JS'
const fs = require('fs'), path = require('path');
const dir = process.argv[2];
const blob = d => JSON.parse(fs.readFileSync(path.join(dir, 'blobs', ...d.split(':'))));
const manifest = blob(JSON.parse(fs.readFileSync(path.join(dir, 'index.json'))).manifests[0].digest);
const config = blob(manifest.config.digest).config;
const q = s => "'" + String(s).replace(/'/g, "'\\''") + "'";
console.log('layers=(' + manifest.layers.map(l => q(path.join(dir, 'blobs', ...l.digest.split(':')))).join(' ') + ')');
console.log('entrypoint=(' + [...(config.Entrypoint || []), ...(config.Cmd || [])].map(q).join(' ') + ')');
console.log('environment=(' + (config.Env || []).map(q).join(' ') + ')');
console.log('user=' + q(config.User || '0:0'));
console.log('workdir=' + q(config.WorkingDir || '/'));
JS
source "$work/image.env"
echo "image-check: unpacking ${#layers[@]} layers"
for layer in "${layers[@]}"; do
  tar -xf "$layer" -C "$work/rootfs"
  find "$work/rootfs" -name '.wh.*' | while read -r marker; do
    rm -rf "$(dirname "$marker")/$(basename "$marker" | sed 's/^\.wh\.//')" "$marker"
  done
done
mkdir -p "$work/rootfs/proc"
uid=${user%%:*}; gid=${user#*:}; [ "$gid" = "$user" ] && gid=$uid
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
echo "image-check: starting ${entrypoint[*]} as $uid:$gid in $workdir"
# PORT as the orchestrator would set it; everything else as the image says (the network is the host's).
env -i "${environment[@]}" PORT="$port" \
  "$(command -v unshare)" --mount --pid --fork --kill-child --mount-proc --root="$work/rootfs" --wd="$workdir" \
  --setgid "$gid" --setuid "$uid" -- "${entrypoint[@]}" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/health" > "$work/health" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 1
done
echo "image-check: /health $(cat "$work/health")"
answer=$(curl -fsS -H 'Content-Type: application/json' \
  -d '{"query":"{ movie(id: \"tt0111161\") { title year } }"}' "http://127.0.0.1:$port/graphql")
echo "image-check: $answer"
echo "$answer" | grep -q '"title":"The Shawshank Redemption"' || { cat "$work/server.log" >&2; exit 1; }
grep -o 'ready in [0-9]* ms' "$work/server.log" | sed 's/^/image-check: the container was /'
echo "image-check: the image started from its unpacked filesystem and answered"
