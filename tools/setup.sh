#!/bin/sh
# Install what shardsim needs, configure and build it in build/, then run the
# default demo: the Flax guide's DotReluDot MLP trained on a 2x4 mesh of
# virtual devices (scenarios/flax_mlp.shard). Safe to run again: it only
# installs what is missing.
#   sh tools/setup.sh            build and run the demo
#   sh tools/setup.sh --no-demo  build only
#   sh tools/setup.sh --dry-run  say which packages are missing and the
#                                command that would install them; change nothing
# It also creates .venv/, a Python virtual environment holding the JAX stack
# pinned in tests/jax/requirements.txt (about 1 GB) for the tests that
# compare shardsim with real JAX; SETUP_JAX=0 skips it (those tests are then
# skipped, and say so). JAX is never a dependency of the library.
# On Debian and Fedora it also installs Chromium, which the browser tests of
# the --html page load headless (tests/html_report.py); SETUP_BROWSER=0
# skips it (those tests are then skipped, and say so).
# Package managers: apt-get (Debian, Ubuntu; what CI runs), dnf (Fedora) and
# Homebrew (macOS). SETUP_OS=debian|fedora|macos picks one by hand.
set -eu
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
"" | --no-demo | --dry-run) ;;
*)
    echo "usage: sh tools/setup.sh [--no-demo | --dry-run]" >&2
    exit 2
    ;;
esac

os=${SETUP_OS:-}
if [ -z "$os" ]; then
    if [ "$(uname -s)" = Darwin ]; then
        os=macos
    elif command -v apt-get >/dev/null 2>&1; then
        os=debian
    elif command -v dnf >/dev/null 2>&1; then
        os=fedora
    else
        os=unknown
    fi
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo "
meson_opts=""

# The same needs under each manager's names: a C11 compiler, pkg-config,
# meson, ninja, OpenBLAS (cblas.h), Criterion, cJSON, zstd, PCRE2 (8-bit), libyaml,
# and Python's headers for the Python package (python/shardsim).
case "$os" in
debian)
    pkgs="gcc pkg-config meson ninja-build libopenblas-dev libcriterion-dev libcjson-dev libzstd-dev libpcre2-dev libyaml-dev python3-dev"
    [ "${SETUP_JAX:-1}" = 0 ] || pkgs="$pkgs python3-venv"
    [ "${SETUP_BROWSER:-1}" = 0 ] || pkgs="$pkgs chromium"
    installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
    install_cmd="${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq"
    ;;
fedora)
    pkgs="gcc pkgconf-pkg-config meson ninja-build openblas-devel criterion-devel cjson-devel libzstd-devel pcre2-devel libyaml-devel python3-devel"
    [ "${SETUP_BROWSER:-1}" = 0 ] || pkgs="$pkgs chromium"
    installed() { rpm -q "$1" >/dev/null 2>&1; }
    install_cmd="${sudo}dnf install -y -q"
    ;;
macos)
    # The compiler is Apple's (xcode-select --install); Homebrew's openblas is
    # keg-only, so meson is told where its pkg-config file is.
    if ! command -v brew >/dev/null 2>&1; then
        echo "setup: Homebrew (https://brew.sh) is needed on macOS" >&2
        exit 1
    fi
    if ! command -v cc >/dev/null 2>&1; then
        echo "setup: no C compiler; run xcode-select --install first" >&2
        exit 1
    fi
    pkgs="meson ninja pkgconf openblas criterion cjson zstd pcre2 libyaml"
    installed() { brew list --versions "$1" >/dev/null 2>&1; }
    install_cmd="brew install"
    meson_opts="-Dpkg_config_path=$(brew --prefix openblas)/lib/pkgconfig"
    ;;
*)
    echo "setup: no apt-get, dnf or Homebrew found. Install by hand: a C11 compiler," >&2
    echo "  pkg-config, meson, ninja and the development files of OpenBLAS, Criterion," >&2
    echo "  cJSON, zstd, PCRE2 and libyaml; then: meson setup build && ninja -C build" >&2
    exit 1
    ;;
esac

missing=""
for p in $pkgs; do
    installed "$p" || missing="$missing $p"
done
if [ "$mode" = --dry-run ]; then
    echo "setup: $os; packages: $pkgs"
    if [ -n "$missing" ]; then
        echo "setup: would run: $install_cmd$missing"
    else
        echo "setup: nothing to install"
    fi
    echo "setup: would run: meson setup build${meson_opts:+ $meson_opts} && ninja -C build"
    if [ "${SETUP_JAX:-1}" != 0 ]; then
        echo "setup: would create .venv/ (python3 -m venv) with pip and tests/jax/requirements.txt"
    fi
    exit 0
fi
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    sh -c "$install_cmd$missing" >/dev/null
fi

# The pinned JAX stack, reinstalled when tests/jax/requirements.txt changes
# (.venv/requirements.txt is the copy it was installed from). A failure here
# (no network, say) leaves the build alone: the JAX tests are then skipped.
if [ "${SETUP_JAX:-1}" != 0 ] && ! cmp -s tests/jax/requirements.txt .venv/requirements.txt 2>/dev/null; then
    echo "setup: installing the JAX stack of tests/jax/requirements.txt into .venv/"
    if python3 -m venv .venv &&
        .venv/bin/pip install -q --disable-pip-version-check -r tests/jax/requirements.txt; then
        cp tests/jax/requirements.txt .venv/requirements.txt
    else
        echo "setup: could not install the JAX stack into .venv/; the JAX tests will be skipped" >&2
    fi
fi

# shellcheck disable=SC2086 # meson_opts is empty or one word
[ -f build/build.ninja ] || meson setup build $meson_opts >/dev/null
ninja -C build >/dev/null
echo "setup: built build/shardsim and the tests"
if [ "$mode" != --no-demo ]; then
    ./build/shardsim run scenarios/flax_mlp.shard
fi
