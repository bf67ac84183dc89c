#!/usr/bin/env bash
# CPU per request, by role, for one system of the load tool, measured with Linux perf across the
# whole machine (kernel time included, which JFR does not sample).
#
#   load/scripts/cpu-per-request.sh SYSTEM [USERS] [SECONDS] [TOP]
#
# SYSTEM is one of the load tool's systems (sessionless, session-sticky, ...). Runs a `flood` of
# USERS users (default 8) after the tool's usual warm-up and JIT settling, records SECONDS
# (default 15) of the flood with `perf record -a`, and prints the machine's CPU per request in
# microseconds: server threads (Jetty's qtp pools), injector threads (the tool's HttpClient),
# JIT compiler and GC threads, and idle, each split into user (Java, JVM, libc) and kernel time.
# With TOP > 0 it also prints the TOP server-thread symbols (Java methods named through the
# JVM's perf map). Needs `perf` (Debian: linux-perf) and the load jar:
#   mvn -B -ntp -q -pl load -am package -DskipTests
# Run it for two systems back to back and compare the totals; on a shared two-core machine run
# nothing else meanwhile. LOAD_ARGS adds options to the flood, e.g.
#   LOAD_ARGS="--padding=350" load/scripts/cpu-per-request.sh session-sticky-padded
#   LOAD_ARGS="--app-cpu=500us" load/scripts/cpu-per-request.sh sessionless
set -euo pipefail
system=${1:?usage: cpu-per-request.sh SYSTEM [USERS] [SECONDS] [TOP]}
users=${2:-8}
secs=${3:-15}
top=${4:-0}
command -v perf >/dev/null || { echo "perf not found: apt-get install linux-perf" >&2; exit 2; }
jar=${LOAD_JAR:-load/target/load.jar}
[ -f "$jar" ] || { echo "$jar not found: mvn -B -ntp -q -pl load -am package -DskipTests" >&2; exit 2; }
out=$(mktemp -d)
java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -jar "$jar" flood --systems="$system" \
  --max-users="$users" --step="$((secs + 6))s" --out="$out" ${LOAD_ARGS:-} >"$out/run.log" 2>&1 &
pid=$!
until grep -q "^$system flood $users " "$out/run.log" 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || { cat "$out/run.log" >&2; exit 1; }
  sleep 1
done
sleep 3
perf record -q -F 999 -a -o "$out/perf.data" -- sleep "$secs" 2>/dev/null
wait "$pid"
rate=$(grep -E "^\| $system flood $users \|" "$out/run.log" | cut -d'|' -f4 | tr -d ' ')
cpus=$(nproc)
echo "$system, $users users: $rate requests/s, $cpus CPUs; microseconds of CPU per request"
perf script -i "$out/perf.data" -F comm,ip,dso 2>/dev/null | awk -v rate="$rate" -v cpus="$cpus" '
  {
    dso = $NF; comm = $1
    role = "other"
    if (comm ~ /^qtp/ || comm ~ /Scheduler/) role = "server"
    else if (comm ~ /^load-injector/ || comm ~ /^HttpClient/) role = "injector"
    else if (comm ~ /^C[12]$/ || comm ~ /^C[12]_?Compiler/ || comm ~ /^C[12] Compiler/) role = "jit"
    else if (comm ~ /^G1/ || comm ~ /^GC/) role = "gc"
    else if (comm == "swapper") role = "idle"
    kind = (dso ~ /kernel/) ? "kernel" : "user"
    n[role, kind]++; total++
  }
  END {
    per = cpus * 1e6 / rate / total
    printf "%-9s %8s %8s %8s\n", "role", "user", "kernel", "total"
    split("server injector jit gc other idle", roles, " ")
    for (i = 1; i <= 6; i++) {
      r = roles[i]; u = n[r, "user"] * per; k = n[r, "kernel"] * per
      printf "%-9s %8.1f %8.1f %8.1f\n", r, u, k, u + k
      all += u + k
    }
    printf "%-9s %8s %8s %8.1f\n", "all", "", "", all
  }'
if [ "$top" -gt 0 ]; then
  echo "top server-thread symbols, microseconds per request:"
  perf script -i "$out/perf.data" -F comm,ip,sym 2>/dev/null | awk -v rate="$rate" -v cpus="$cpus" '
    { total++ } $1 ~ /^qtp/ { $1 = ""; $2 = ""; sub(/^ +/, ""); s[$0]++ }
    END { per = cpus * 1e6 / rate / total; for (k in s) printf "%7.2f %s\n", s[k] * per, k }' \
    | sort -rn | head -n "$top"
fi
rm -rf "$out"
