#!/usr/bin/env bash
# Writes the base image Jib builds Sift's image on (a docker-save tarball): one small layer and the image's health
# check, which Jib takes over from a base image but cannot be given directly. The check runs 'sift health' with the
# image's own JRE (the image has no shell or curl).   usage: base-image.sh TAR
set -euo pipefail
out="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/layer/etc"
printf 'Sift container image. Health check: sift health (GET http://127.0.0.1:7860/health).\n' > "$work/layer/etc/sift-image"
# fixed owner, mode and time so every build makes the same layer
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='1970-01-01 00:00:00Z' --mode='u=rwX,go=rX' \
  -cf "$work/layer.tar" -C "$work/layer" etc
diff_id="sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
second=1000000000
cat > "$work/config.json" <<JSON
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:00Z",
 "config":{"Healthcheck":{"Test":["CMD","/opt/java/bin/java","-XX:TieredStopAtLevel=1","-XX:+UseSerialGC","-Xmx64m",
   "-cp","@/app/jib-classpath-file","dev.sift.cli.Main","health"],
   "Interval":$((30 * second)),"Timeout":$((20 * second)),"StartPeriod":$((300 * second)),"Retries":3}},
 "rootfs":{"type":"layers","diff_ids":["$diff_id"]},
 "history":[{"created":"1970-01-01T00:00:00Z","created_by":"src/image/base-image.sh"}]}
JSON
printf '[{"Config":"config.json","RepoTags":["sift-base:latest"],"Layers":["layer.tar"]}]\n' > "$work/manifest.json"
mkdir -p "$(dirname "$out")"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='1970-01-01 00:00:00Z' \
  -cf "$out" -C "$work" manifest.json config.json layer.tar
echo "base-image.sh: $out"
