#!/usr/bin/env bash
# The whole CUDA measurement of docs/gpu.md, in one script (about 6 minutes on an H200).
#
#   tools/gpu_check.sh pack     # here, with pip and no GPU: the cp312 IREE wheels' contents
#                               # into .gpu/iree-cp312.tar.xz (about 52 MB; git ignores .gpu/)
#   tools/gpu_check.sh run      # on the GPU machine, from the repository root: install, check,
#                               # time; results in $OUT (default gpu_out/): gpu_results.md,
#                               # *.json, *.log
#
# With the device tool: run(command="bash tools/gpu_check.sh run", carry=[".gpu"],
# timeout_s=540). SETUP=0 skips the install (a machine whose python already has shlo, IREE
# and jax); TARGET (default cuda:sm_90a) and ONLY (shlo-bench --only) narrow a run.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu_out}
TARGET=${TARGET:-cuda:sm_90a}
PY=${PY:-python3}

pack() {
    local py=.venv/bin/python version dir
    version=$($py -c "import importlib.metadata as m; print(m.version('iree-base-compiler'))")
    mkdir -p .git/info .gpu
    grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
    dir=$(mktemp -d)
    $py -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d "$dir/whl" \
        "iree-base-compiler==$version" "iree-base-runtime==$version" || return 1
    mkdir -p "$dir/site"
    for w in "$dir"/whl/*.whl; do $py -m zipfile -e "$w" "$dir/site"; done
    rm -rf "$dir"/site/iree/_runtime_libs_tracy         # the tracing runtime: not needed
    XZ_OPT=-9T0 tar -C "$dir/site" -cJf .gpu/iree-cp312.tar.xz .
    rm -rf "$dir"
    # MPI for the two-rank CUDA test (pip installs them on the GPU machine, offline)
    $py -m pip download --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 -d .gpu/mpi mpi4py mpich || return 1
    ls -l .gpu/iree-cp312.tar.xz .gpu/mpi
}

step() {    # step NAME SECONDS COMMAND...: run with a time limit, log to $OUT/NAME.log
    local name=$1 limit=$2 start rc
    shift 2
    start=$(date +%s)
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    rc=$?
    echo "- \`$name\`: exit $rc in $(( $(date +%s) - start )) s" >> "$OUT/steps.md"
    echo "[$name] exit $rc" >&2
    return $rc
}

run() {
    mkdir -p "$OUT"
    : > "$OUT/steps.md"
    if [ "${SETUP:-1}" = 1 ]; then
        # a venv of its own (shlo-run beside its python, as the tests expect) that also sees
        # the machine's packages (jax with CUDA), which may live in a venv themselves
        local parent site
        parent=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        $PY -m venv /tmp/gpu-venv || return 1
        PY=/tmp/gpu-venv/bin/python
        site=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        echo "$parent" > "$site/machine-packages.pth"
        tar -C "$site" -xJf .gpu/iree-cp312.tar.xz || return 1
        step install 120 $PY -m pip install -q --no-deps --no-index --no-build-isolation . \
            || { cat "$OUT/install.log"; return 1; }
    fi
    local only=()
    [ -n "${ONLY:-}" ] && only=(--only "$ONLY")
    nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv \
        > "$OUT/gpu.txt" 2>&1
    $PY -c "import jax; print('jax', jax.__version__, jax.devices())" >> "$OUT/gpu.txt" 2>&1
    step tests 150 $PY -m pytest -q -rs -p no:cacheprovider test/python/test_runtime_cuda.py \
        test/python/test_legalize_gpu_ops.py
    # two ranks under mpiexec, one GPU each where there are two, collectives through the host
    if [ -d .gpu/mpi ] && $PY -m pip install -q --no-index --find-links .gpu/mpi mpi4py mpich \
            > "$OUT/mpi-install.log" 2>&1; then
        step mpi 120 $PY -m pytest -q -rs -p no:cacheprovider test/python/test_distributed.py \
            -k "cuda or gpu"
    else
        echo "- \`mpi\`: skipped (no .gpu/mpi wheels: tools/gpu_check.sh pack)" >> "$OUT/steps.md"
    fi
    # device-resident timing, both sides (the numbers to compare with XLA)
    step resident 240 $PY -m shlo.tools.shlo_bench --target "$TARGET" --resident --rounds 3 \
        --budget 0.1 --json "$OUT/resident.json" "${only[@]}"
    # numpy in and out, as the first H200 run measured (host copies timed on both sides)
    step host 90 $PY -m shlo.tools.shlo_bench --target "$TARGET" --rounds 3 --budget 0.1 \
        --json "$OUT/host.json" \
        --only "${ONLY:-mlp_256x1024x3,argmax_rows_4096x4096,layernorm_4096x1024,elementwise10_16M,softmax_4096x4096}"
    # the configurations whose code differs from the default (pipelines/gpu_tuning.TIMED)
    for config in $($PY -c "from shlo.pipelines.gpu_tuning import TIMED; print(*TIMED)"); do
        step "config-$config" 60 $PY -m shlo.tools.gpu_bench time --config "$config" \
            --target "$TARGET" --only top_k_64x4096_k16 -o "$OUT/config-$config.txt"
    done
    # whole jax programs, where tools/bench_models.py takes the target
    if grep -q "args.target" tools/bench_models.py 2>/dev/null; then
        step models 150 $PY -m shlo.tools.shlo_bench --suite models --target "$TARGET" \
            --no-vulkan --small --rounds 3 --budget 0.1 --json "$OUT/models.json"
    else
        echo "- \`models\`: skipped (tools/bench_models.py runs on the CPU only)" >> "$OUT/steps.md"
    fi
    report > "$OUT/gpu_results.md"
    cat "$OUT/gpu_results.md"
}

report() {
    echo "# GPU check, $(date -u +%Y-%m-%dT%H:%MZ), target $TARGET"
    echo; echo '```'; cat "$OUT/gpu.txt"; echo '```'
    echo; echo "## Steps"; cat "$OUT/steps.md"
    echo; echo "## Tests"; echo '```'; tail -n 15 "$OUT/tests.log"; echo '```'
    if [ -f "$OUT/mpi.log" ]; then
        echo; echo "## Tests under mpiexec"; echo '```'; tail -n 15 "$OUT/mpi.log"; echo '```'
    fi
    for name in resident host models; do
        [ -f "$OUT/$name.log" ] || continue
        echo; echo "## shlo-bench: $name"; echo '```'; grep -v '^\[' "$OUT/$name.log" | tail -n 40
        echo '```'
    done
    for f in "$OUT"/config-*.txt; do
        [ -f "$f" ] || continue
        echo; echo "## $(basename "$f" .txt)"; echo '```'; cat "$f"; echo '```'
    done
}

case "${1:-}" in
    pack) pack ;;
    run) run ;;
    *) echo "usage: tools/gpu_check.sh pack|run" >&2; exit 2 ;;
esac
