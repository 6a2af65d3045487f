#!/bin/sh
# Install into a scratch DESTDIR and build a consumer with pkg-config only.
set -eu
build=${1:?usage: run.sh BUILDDIR SRCDIR [SANITIZE]}
src=${2:?}
# A sanitized build installs a sanitized library: link the consumer alike.
san=${3:-none}
sanflags=
[ "$san" = none ] || sanflags=-fsanitize=$san
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --no-rebuild >/dev/null
pc=$(find "$dest" -name capclamp.pc)
prefix=$(sed -n 's/^prefix=//p' "$pc")
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags --libs capclamp)
cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$dest/consumer" \
	"$src/tests/install/consumer.c" $flags $sanflags
out=$("$dest/consumer")
echo "consumer printed: $out"
[ "$out" = "0 1024" ]
