#!/bin/sh
# Side by side, in one run: the Flax guide's MLP train step (BATCH 8,
# DEPTH 1024, 4 DotReluDot layers, loss = sum, Adam 1e-3) on shardsim's 2x4
# virtual devices, and the peer program (bench/peers/torch_mlp_tp.py): the
# same step hand-sharded over 8 PyTorch gloo processes, and unsharded
# PyTorch on one process.
#   sh bench/compare_mlp.sh [PEER_DIR]   (default: bench/peers)
set -eu
cd "$(dirname "$0")/.."
peer_dir=${1:-bench/peers}
[ -x build/shardsim ] || sh tools/setup.sh --no-demo >/dev/null
if ! python3 -c "import torch" 2>/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-torch >/dev/null
fi
echo "== shardsim (2x4 virtual devices, params and state donated)"
./build/shardsim bench mlp
echo "== shardsim (the same, without donation)"
./build/shardsim bench mlp --no-donate
echo "== PyTorch, 8 gloo processes"
/usr/bin/python3 "$peer_dir/torch_mlp_tp.py" 12 8 2>/dev/null
echo "== PyTorch, unsharded"
/usr/bin/python3 "$peer_dir/torch_mlp_tp.py" 12 1 2>/dev/null
