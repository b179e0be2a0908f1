#!/usr/bin/env bash
# Builds the gateway's image from the Dockerfile with no Docker daemon and no registry: a JRE base made
# here from a JDK 25 (jlink, plus the C library it links against), `podman build` with chroot isolation
# (no container runtime needed for the RUN step that trains the AOT cache), then the image saved as an
# OCI archive. Run `mvn -B -DskipTests package` first.
# usage: deploy/image/build.sh OUT.tar      env: JDK25_HOME (default: a JDK 25 where Debian installs JDKs)
# Exits 3 (after saying why) when podman or a JDK 25 is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: deploy/image/build.sh OUT.tar}
jdk=${JDK25_HOME:-}
if [ -z "$jdk" ]; then
  for candidate in /usr/lib/jvm/*; do
    if [ -x "$candidate/bin/jlink" ] && "$candidate/bin/java" -version 2>&1 | grep -q 'version "25'; then jdk=$candidate; break; fi
  done
fi
if [ -z "$jdk" ] || ! "$jdk/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "image: skipped, no JDK 25 (set JDK25_HOME): the image's AOT cache needs one" >&2; exit 3
fi
command -v podman >/dev/null || { echo "image: skipped, podman is not installed (apt-get install podman)" >&2; exit 3; }
[ -f target/moviegraph.jar ] || { echo "image: target/moviegraph.jar is missing: mvn -B -DskipTests package" >&2; exit 1; }
podman=(podman --storage-driver vfs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The base: the JDK's modules minus its tools, the C library (glibc) they link against, a user, /tmp.
modules=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -E '^java\.|^jdk\.(unsupported|crypto|zipfs|management|httpserver|jfr|localedata|naming|net|charsets|security|dynalink|xml\.dom)' | paste -sd,)
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --output "$work/rootfs/opt/java"
libs=$({ ldd "$work/rootfs/opt/java/bin/java"; find "$work/rootfs/opt/java/lib" -name '*.so' ! -name 'libawt_xawt.so' -exec ldd {} \; ; } 2>/dev/null \
  | grep -o '/[^ ]*\.so[^ ]*' | grep -v "$work" | sort -u)
for lib in $libs /lib/x86_64-linux-gnu/libdl.so.2 /lib/x86_64-linux-gnu/libpthread.so.0 /lib/x86_64-linux-gnu/librt.so.1; do
  [ -e "$lib" ] && cp --parents -L "$lib" "$work/rootfs/"
done
mkdir -p "$work/rootfs/tmp" "$work/rootfs/etc" "$work/rootfs/app"
chmod 1777 "$work/rootfs/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nmoviegraph:x:10001:10001:moviegraph:/app:/sbin/nologin\n' > "$work/rootfs/etc/passwd"
printf 'root:x:0:\nmoviegraph:x:10001:\n' > "$work/rootfs/etc/group"
tar -C "$work/rootfs" -cf "$work/base.tar" .
"${podman[@]}" import --change 'ENV PATH=/opt/java/bin:/usr/bin:/bin' --change 'ENV JAVA_HOME=/opt/java' \
  "$work/base.tar" localhost/moviegraph-jre:25 >/dev/null

"${podman[@]}" build --isolation chroot --build-arg JRE_IMAGE=localhost/moviegraph-jre:25 -t localhost/moviegraph:latest .
rm -f "$out"
"${podman[@]}" save --format oci-archive -o "$out" localhost/moviegraph:latest
echo "image: $out ($(($(stat -c %s "$out") / 1024 / 1024)) MiB, OCI archive)"
