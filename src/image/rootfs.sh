#!/usr/bin/env bash
# Lays out the operating-system part of Sift's container image in DIR, from this build machine alone (no base
# image is pulled from a registry): a JRE made by jlink, the shared libraries it and Sift's native libraries
# (DuckDB, XGBoost/OpenMP) link against, a non-root user, and writable /tmp and /data. Jib adds Sift's own
# layers on top of it.   usage: rootfs.sh DIR
set -euo pipefail
out="$1"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
[ -d "$java_home/jmods" ] || { echo "rootfs.sh: $java_home has no jmods; set JAVA_HOME to a full JDK 17 (e.g. apt-get install openjdk-17-jdk-headless)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/opt" "$out/etc" "$out/tmp" "$out/data" "$out/home/sift"
modules=java.base,java.sql,java.naming,java.net.http,java.management,java.logging,java.xml,java.desktop,java.scripting,java.security.jgss,java.instrument,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,jdk.management,jdk.localedata
"$java_home/bin/jlink" --module-path "$java_home/jmods" --add-modules "$modules" --strip-debug --no-man-pages \
  --no-header-files --compress=2 --output "$out/opt/java"
# Shared libraries: what the JRE links against, plus what DuckDB's and XGBoost's natives need.
libs=$( { ldd "$out/opt/java/bin/java"; find "$out/opt/java/lib" -name '*.so' -exec ldd {} \; 2>/dev/null; \
  ldconfig -p | awk '/libgomp\.so\.1 |libstdc\+\+\.so\.6 |libgcc_s\.so\.1 |libz\.so\.1 |libm\.so\.6 |libdl\.so\.2 |libpthread\.so\.0 |librt\.so\.1 /{print "x => " $NF}'; } \
  | awk '/=> \//{print $3} /^\t\/lib64\//{print $1}' | sort -u)
for lib in $libs; do
  [ -f "$lib" ] || continue
  mkdir -p "$out$(dirname "$lib")"
  cp -L "$lib" "$out$lib"
  real="$(readlink -f "$lib")"   # keep the canonical path too (ld.so may resolve either)
  [ "$real" = "$lib" ] || { mkdir -p "$out$(dirname "$real")"; cp -L "$lib" "$out$real"; }
done
ld="$(ldd "$out/opt/java/bin/java" | awk '/ld-linux/{print $1}')"
mkdir -p "$out$(dirname "$ld")"; cp -L "$ld" "$out$ld"
printf 'root:x:0:0:root:/root:/sbin/nologin\nsift:x:10001:10001:sift:/home/sift:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nsift:x:10001:\n' > "$out/etc/group"
echo "rootfs.sh: $(du -sh "$out" | cut -f1) in $out"
