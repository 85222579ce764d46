#!/bin/sh
# Side by side, in one run: shardsim's collectives on 8 virtual devices and
# Open MPI's with 8 ranks on this machine (the peer program is
# bench/peers/mpi_coll.c, built here with mpicc). Prints medians of shardsim
# and the best-of-10 of the MPI peer for 1 and 16 MiB.
#   sh bench/compare_collectives.sh [PEER_DIR]   (default: bench/peers)
set -eu
cd "$(dirname "$0")/.."
peer_dir=${1:-bench/peers}
[ -x build/shardsim ] || sh tools/setup.sh --no-demo >/dev/null

if ! command -v mpicc >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openmpi-bin libopenmpi-dev >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpicc -O2 "$peer_dir/mpi_coll.c" -o "$tmp/mpi_coll"

echo "== shardsim (8 and 64 virtual devices, medians)"
./build/shardsim bench collectives
for mib in 1 16; do
    echo "== Open MPI, 8 ranks, $mib MiB (best of 10)"
    mpirun --oversubscribe --allow-run-as-root -np 8 "$tmp/mpi_coll" "$mib" 10 2>/dev/null
done
