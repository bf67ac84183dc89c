#!/usr/bin/env bash
# The sizing matrix (Matrix*Benchmark: operation x algorithm x state size, the peers beside
# Sessionless), then latest.md and the charts.
#
#   benchmarks/size-matrix.sh --smoke   # every cell once, in-process, ~1-2 min; no figures:
#                                       #   writes benchmarks/target/smoke/ only
#   benchmarks/size-matrix.sh --quick   # 1 fork, one state size (256 B), -prof gc, each class's own
#                                       #   warm-up (Matrix*Benchmark's @Warmup/@Measurement: 1 x 0.5 s
#                                       #   for HS256/dir, whose operations take microseconds; 2 x 1 s for
#                                       #   ES256/EdDSA, whose operations take 0.1-2 ms, so 0.5 s is only
#                                       #   a few hundred of them) and 2 x 0.5 s measured: ~123 cells of
#                                       #   ~2 s, ~4-5 min on 2 cores (4 min 18 s at b9791fe); every size with
#                                       #   -p stateBytes=64,256,1024,4096: ~25 min
#   benchmarks/size-matrix.sh --full    # 1 fork, 3 x 1 s warm-up, 5 x 1 s, every size, -prof gc:
#                                       #   ~490 cells of ~9 s: well over an hour on 2 cores
#   benchmarks/size-matrix.sh --quick -p stateBytes=1024   # anything after the mode goes to JMH;
#                                       #   a stateBytes given there replaces the mode's own sizes
#   SKIP_RUN=1 benchmarks/size-matrix.sh --quick A.json B.json   # no run: latest.md from result files,
#                                       #   a cell of a later file replacing the same cell of an earlier one
#
# --quick and --full write benchmarks/results/<date>-jdk<N>-<commit>-matrix-<mode>.json (never
# an existing file) and regenerate benchmarks/results/latest.md and its PNG charts from it.
# Environment: JAVA_HOME (the JDK to run on), SKIP_BUILD=1 (reuse benchmarks/target/benchmarks.jar).
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/results-name.sh

MODE="${1:---quick}"
shift || true
case "$MODE" in
  --smoke) OPTS=(-f 0 -wi 0 -i 1 -r 10ms -foe true) ;;
  --quick) OPTS=(-f 1 -prof gc -foe true) ;;
  --full)  OPTS=(-f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -foe true) ;;
  *) echo "usage: size-matrix.sh --smoke|--quick|--full [JMH options]" >&2; exit 2 ;;
esac

# JMH joins the values of repeated -p options, so a default size given here would be added to the
# user's, not replaced: give one only when the user gave none.
SIZES=()
if [[ " $* " != *"stateBytes="* ]]; then
  case "$MODE" in
    --quick) SIZES=(-p stateBytes=256) ;;
  esac
fi

JAVA="java"
if [[ -n "${JAVA_HOME:-}" ]]; then JAVA="$JAVA_HOME/bin/java"; fi
if [[ "${SKIP_RUN:-0}" == "1" ]]; then
  # Only the report: latest.md and the charts from the result files given, later files winning.
  "$JAVA" -cp benchmarks/target/benchmarks.jar dev.sessionless.benchmarks.MatrixReport "$@" benchmarks/results
  exit 0
fi
if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  mvn -B -ntp -q -pl benchmarks -am package -DskipTests
fi

JVM_OPTS=()
if [[ "$MODE" == "--smoke" ]]; then
  # A smoke run measures nothing: another build's JMH run holding JMH's machine-wide lock
  # must not stop it.
  JVM_OPTS=(-Djmh.ignoreLock=true)
  OUT=benchmarks/target/smoke
  mkdir -p "$OUT"
  RESULTS="$OUT/matrix-smoke.json"
else
  OUT=benchmarks/results
  RESULTS=$(results_name "$JAVA" "matrix-${MODE#--}")
fi

echo "Running the matrix ($MODE) on $("$JAVA" -version 2>&1 | head -1); results in $RESULTS" >&2
"$JAVA" "${JVM_OPTS[@]}" -jar benchmarks/target/benchmarks.jar 'Matrix.*Benchmark' "${OPTS[@]}" "${SIZES[@]}" "$@" -rf json -rff "$RESULTS"
"$JAVA" -cp benchmarks/target/benchmarks.jar dev.sessionless.benchmarks.MatrixReport "$RESULTS" "$OUT"
