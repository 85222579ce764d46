#!/usr/bin/env bash
# Run the libFuzzer targets for a while each, one after the other.
#   fuzz/run.sh BUILD_DIR SECONDS [TARGET...]     (default: every target)
# BUILD_DIR was set up with CC=clang meson setup BUILD_DIR -Dfuzz=true.
# Each target starts from its seeds (fuzz/corpus/TARGET, plus scenarios/ for
# the scenario language and scenarios/strategies/ for strategies), which
# also hold the inputs of past findings; new inputs go to a scratch corpus
# under BUILD_DIR/fuzz-corpus; fuzz/TARGET.dict, when there is one, lists
# words of the input format for libFuzzer's mutations. A finding (crash, sanitizer report, leak,
# timeout, memory past the limits) is saved under BUILD_DIR/fuzz-artifacts
# and makes the script exit 1 after the remaining targets ran.
# FUZZ_SEED=N makes a run reproducible (CI sets it): libFuzzer's random seed
# is fixed and each target runs a fixed number of inputs (runs_of below, about
# 30 s of this project's 2-core CI machine each; SECONDS becomes a cap at three
# times that), so from an empty scratch corpus the same seed explores the same
# inputs in the same order whatever the machine's speed, and a run that passes
# here passes in CI. Unset, every target runs SECONDS and every run explores
# anew: that is how new inputs are found.
set -uo pipefail
cd "$(dirname "$0")/.."

build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
secs=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spec hlo mesh rules strategy scenario ckpt mlir ocdbt maxtext)

# Longest input and per-input time limit of each target.
max_len() {
    case $1 in
        scenario) echo 9000 ;; strategy) echo 2048 ;; ckpt | mlir | ocdbt | maxtext) echo 4096 ;;
        hlo | rules) echo 512 ;; *) echo 256 ;;
    esac
}
# Inputs each target runs when FUZZ_SEED is set.
runs_of() {
    case $1 in
        spec) echo 4000000 ;; hlo) echo 6000000 ;; mesh) echo 250000 ;; rules) echo 3000000 ;;
        strategy) echo 700000 ;; scenario) echo 80000 ;; ckpt) echo 15000 ;; mlir) echo 400000 ;;
        *) echo 100000 ;;
    esac
}
timeout_of() { case $1 in scenario | ckpt) echo 30 ;; *) echo 10 ;; esac; }
seeds() {
    echo "fuzz/corpus/$1"
    case $1 in scenario) echo scenarios ;; strategy) echo scenarios/strategies ;; esac
}

mkdir -p "$build/fuzz-artifacts"
seed=()
runner=()
if [ -n "${FUZZ_SEED:-}" ]; then
    seed=(-seed="$FUZZ_SEED" -reload=0)
    # Coverage depends on addresses (a printer's table hashes pointers), so
    # a reproducible run also fixes them: no address randomisation, and the
    # same small environment whoever runs it (its size moves the heap).
    runner=(env -i PATH=/usr/bin:/bin LC_ALL=C)
    if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
        runner+=(setarch "$(uname -m)" -R)
    fi
fi
limit_of() {
    if [ -z "${FUZZ_SEED:-}" ]; then
        echo "-max_total_time=$secs"
    else
        echo "-runs=$(runs_of "$1") -max_total_time=$((3 * secs))"
    fi
}
failed=()
for t in "${targets[@]}"; do
    exe="$build/fuzz/fuzz_$t"
    if [ ! -x "$exe" ]; then
        echo "fuzz: $t MISSING: no $exe (setup with -Dfuzz=true)"
        failed+=("$t")
        continue
    fi
    dict=()
    [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
    work="$build/fuzz-corpus/$t"
    mkdir -p "$work"
    log="$build/fuzz-artifacts/$t.log"
    echo "fuzz: $t: $(limit_of "$t") (max_len $(max_len "$t"), timeout $(timeout_of "$t")s, rss limit 2048 MB)"
    # shellcheck disable=SC2046
    "${runner[@]}" "$exe" $(limit_of "$t") -max_len="$(max_len "$t")" -timeout="$(timeout_of "$t")" \
        -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 "${dict[@]}" "${seed[@]}" \
        -artifact_prefix="$build/fuzz-artifacts/$t-" "$work" $(seeds "$t") >"$log" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
    if [ $rc -ne 0 ]; then
        echo "fuzz: $t FOUND A PROBLEM (exit $rc); the log: $log"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|.*runtime error)' \
            "$log" | head -20
        failed+=("$t")
    else
        echo "fuzz: $t ok: ${runs:-?} inputs, $cov, corpus $(ls "$work" | wc -l) new files"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in: ${failed[*]}"
    exit 1
fi
echo "fuzz: no findings in ${targets[*]}"
