#!/bin/sh
# Install what shardsim needs (Debian/Ubuntu), configure and build it in build/,
# then run the default demo: the Flax guide's DotReluDot MLP trained on a 2x4
# mesh of virtual devices (scenarios/flax_mlp.shard). Safe to run again: it only
# installs what is missing.
#   sh tools/setup.sh            build and run the demo
#   sh tools/setup.sh --no-demo  build only
set -eu
cd "$(dirname "$0")/.."

pkgs="gcc pkg-config meson ninja-build libopenblas-dev libcriterion-dev libcjson-dev libzstd-dev libpcre2-dev"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
echo "setup: built build/shardsim and the tests"
if [ "${1:-}" != "--no-demo" ]; then
    ./build/shardsim run scenarios/flax_mlp.shard
fi
