# Sourced by run.sh and size-matrix.sh: prints a results path that does not exist yet,
#   benchmarks/results/<UTC date>-jdk<feature>-<commit>[-<label>][-<n>].json
# so no run ever overwrites a committed result file.
results_name() { # <java> <label or empty>
  local feature commit base n=2
  feature=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo nogit)
  if [[ -n "$(git status --porcelain -- benchmarks core 2>/dev/null)" ]]; then commit="$commit-dirty"; fi
  base="benchmarks/results/$(date -u +%Y-%m-%d)-jdk${feature}-${commit}${2:+-$2}"
  mkdir -p benchmarks/results
  local name="$base.json"
  while [[ -e "$name" ]]; do name="$base-$n.json"; n=$((n + 1)); done
  echo "$name"
}
