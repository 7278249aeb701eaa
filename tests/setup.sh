#!/bin/bash
# Install what building and testing libcrash needs on Debian 12 (bookworm).
# Idempotent; uses sudo when not root.  CROSS=1 also sets up the cross
# toolchains and qemu-user (tests/cross/setup.sh).
set -euo pipefail
PKGS="build-essential autoconf automake libtool pkg-config libunwind-dev libssl-dev zlib1g-dev libc6-dbg valgrind strace clang libclang-rt-14-dev binutils llvm llvm-19 zstd python3-jsonschema openjdk-17-jdk-headless nodejs rustc python3$(test -e /usr/include/node/node_api.h || echo " libnode-dev")"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	echo "setup: apt-get install$missing" >&2
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ "${CROSS:-0}" = 1 ] && [ -x "$(dirname "$0")/cross/setup.sh" ]; then
	"$(dirname "$0")/cross/setup.sh"
fi
