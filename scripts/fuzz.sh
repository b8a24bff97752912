#!/usr/bin/env bash
# make fuzz: runs each fuzz target under libFuzzer (coverage-guided, AddressSanitizer) one after
# another, and prints one line of figures per target. See docs/fuzzing.md.
#   scripts/fuzz.sh LIBFUZZER_BIN TECHO_FUZZ_BIN OUT SECONDS TARGET...
set -uo pipefail
bin=$1 seeder=$2 out=$3 seconds=$4
shift 4
repo="$(cd "$(dirname "$0")/.." && pwd)"
supp="$repo/Fuzz/sanitizers/lsan.supp"
# The instrumented build carries no built-in resources (Package.swift): the templates and the
# editor's files are read from the repository.
export TECHO_RESOURCES="$repo/Resources"
status=0
for t in "$@"; do
    corpus="$out/corpus/$t" dict="$out/$t.dict" log="$out/$t.log"
    mkdir -p "$corpus"
    # The seed corpus: the target's built-in seeds and the repository's fixtures of its kind.
    "$seeder" "$t" --write-seeds "$out/seeds/$t" --write-dict "$dict" \
        --corpus Tests/TechoCodecsTests/Fixtures --corpus Tests/TechoModelTests/Fixtures --corpus Resources/demo || exit 1
    dictflag=()
    [ -s "$dict" ] && dictflag=(-dict="$dict")
    started=$SECONDS
    TECHO_FUZZ_TARGET=$t LSAN_OPTIONS="suppressions=$supp:print_suppressions=0" \
        "$bin" "$corpus" "$out/seeds/$t" "${dictflag[@]}" -max_total_time="$seconds" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/$t-" >"$log" 2>&1
    rc=$? took=$((SECONDS - started))
    runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+$')
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
    found=$(ls "$out" | grep -E "^$t-(crash|leak|timeout|oom|slow-unit)-" || true)
    echo "fuzz $t: ${runs:-?} executions in $took s (of $seconds), ${cov:-no coverage line}, corpus $(ls "$corpus" | wc -l) files, exit $rc${found:+, findings: $found}"
    if [ $rc -ne 0 ] || [ -n "$found" ]; then status=1; fi
done
exit $status
