#!/usr/bin/env bash
# Runs the Sessionless JMH suite and prints a compact table from JMH's JSON results.
#
#   benchmarks/run.sh                         # build, run the whole suite, print the table
#   benchmarks/run.sh Hs256Decode Es256       # only benchmarks matching these regexps
#   benchmarks/run.sh --table results.json    # only print the table of an earlier run
#
# Environment:
#   JAVA_HOME   the JDK to run on (default: java on the PATH); Maven builds with it too (release 17)
#   RESULTS     the JSON file to write (default: a new file, never an existing one:
#               benchmarks/results/<date>-jdk<feature>-<commit>[-subset].json)
#   JMH_OPTS    JMH options (default: -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc)
#   SKIP_BUILD  set to 1 to reuse benchmarks/target/benchmarks.jar as it is
set -euo pipefail

cd "$(dirname "$0")/.."

table() {
  python3 - "$1" <<'PY'
import json, math, sys

with open(sys.argv[1]) as f:
    runs = json.load(f)

def num(x):
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) or math.isinf(x) else x

def fmt(x):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.3f}"
    return f"{x:.4f}"

rows = []
for r in runs:
    name = r["benchmark"].rsplit(".", 2)
    name = ".".join(name[-2:])
    params = ",".join(f"{k}={v}" for k, v in sorted((r.get("params") or {}).items())) or "-"
    pm = r["primaryMetric"]
    score, err, unit = num(pm.get("score")), num(pm.get("scoreError")), pm.get("scoreUnit", "")
    alloc = num((r.get("secondaryMetrics") or {}).get("gc.alloc.rate.norm", {}).get("score"))
    unit = unit.replace("us/", "µs/")
    rows.append((name, params, fmt(score) + (" ± " + fmt(err) if err is not None else ""), unit,
                 "-" if alloc is None else f"{alloc:,.0f}"))

head = ("benchmark", "param", "score ± error", "unit", "B/op")
widths = [max(len(str(row[i])) for row in rows + [head]) for i in range(len(head))]
def line(row):
    return "  ".join(str(c).rjust(w) if i >= 2 else str(c).ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
print(line(head))
print("  ".join("-" * w for w in widths))
for row in rows:
    print(line(row))
jvm = runs[0].get("jvm", "?") if runs else "?"
print(f"\n{len(rows)} benchmarks; JDK {runs[0].get('jdkVersion', '?') if runs else '?'} ({jvm}); "
      f"B/op is gc.alloc.rate.norm from -prof gc")
PY
}

if [[ "${1:-}" == "--table" ]]; then
  table "${2:?usage: run.sh --table results.json}"
  exit 0
fi

JAVA="java"
if [[ -n "${JAVA_HOME:-}" ]]; then
  JAVA="$JAVA_HOME/bin/java"
fi
source benchmarks/results-name.sh
if [[ -z "${RESULTS:-}" ]]; then
  RESULTS=$(results_name "$JAVA" "$([[ $# -gt 0 ]] && echo subset)")
fi
read -r -a OPTS <<< "${JMH_OPTS:--f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc}"

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  mvn -B -ntp -q -pl benchmarks -am package -DskipTests
fi

echo "Running on $("$JAVA" -version 2>&1 | head -1); results in $RESULTS" >&2
"$JAVA" -jar benchmarks/target/benchmarks.jar "${OPTS[@]}" -rf json -rff "$RESULTS" "$@"
echo
table "$RESULTS"
