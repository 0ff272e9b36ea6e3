#!/usr/bin/env bash
# run-notebooks.sh: execute notebooks headlessly with the GoNB kernel, check
# them, and export each to static HTML.
#
# Usage: scripts/run-notebooks.sh [--require-rich] [--compare | --update] [NOTEBOOK.ipynb...]
#   (default: every notebooks/*.ipynb; run from anywhere inside the repo)
#
# For each notebook NAME this writes build/notebooks/NAME.ipynb (executed),
# NAME.html (static, made by scripts/nbhtml.py: require.js and MathJax from a
# public CDN so the page works on other machines, the style in a shared
# notebook-HASH.css beside it) and NAME.log (nbconvert's output). It fails when
#   - nbconvert fails (a compile error or failed `go get` in a cell) or times out;
#   - nbcheck finds a panic, non-zero exit, failing %test or failing !command
#     (GoNB reports those only as "exit status N" on stderr), an error output,
#     an unexecuted cell, a code cell over 40 lines, or a figure quoted in the
#     prose ({{cell: figure}} in the source) that its cell does not show; with
#     --require-rich, a notebook without any table or chart;
#   - with --compare (what CI does): a cell's outputs differ from those committed
#     in notebooks/NAME.ipynb (timings and execution counts are not compared);
#   - the HTML still points at this machine's file:///usr/share/javascript.
# With --update, a notebook that passes gets the fresh outputs written into
# notebooks/NAME.ipynb (scripts/nbgen.py --outputs) and its published page,
# docs/notebooks/NAME.html, made again from it (scripts/nbhtml.py): run it
# after changing a notebook's source, and commit all three.
#
# Needs: Debian's jupyter-nbconvert, goimports and gonb on PATH (or in
# $(go env GOPATH)/bin) and the gonb kernel registered; .ci/run installs them.
# Environment: NB_CELL_TIMEOUT (seconds per cell, default 600),
# NB_TIMEOUT (seconds per notebook, default 1200).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
  PATH=/usr/local/go/bin:$PATH
fi
gobin=$(go env GOBIN)
PATH="${gobin:-$(go env GOPATH)/bin}:$PATH"
export PATH

cell_timeout=${NB_CELL_TIMEOUT:-600}
nb_timeout=${NB_TIMEOUT:-1200}
out=build/notebooks

nbcheck_flags=(-max-lines 40)
notebooks=()
compare=0
update=0
for arg in "$@"; do
  case $arg in
    --require-rich | -require-rich) nbcheck_flags+=(-require-rich) ;;
    --compare | -compare) compare=1 ;;
    --update | -update) update=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-notebooks.sh: unknown flag $arg" >&2; exit 2 ;;
    *) notebooks+=("$arg") ;;
  esac
done
if [ "$compare" -eq 1 ] && [ "$update" -eq 1 ]; then
  echo "run-notebooks.sh: --compare and --update exclude each other" >&2
  exit 2
fi
if [ ${#notebooks[@]} -eq 0 ]; then
  shopt -s nullglob
  notebooks=(notebooks/*.ipynb)
  shopt -u nullglob
fi
if [ ${#notebooks[@]} -eq 0 ]; then
  echo "run-notebooks.sh: no notebooks/*.ipynb to run"
  exit 0
fi

jupyter=/usr/bin/jupyter
[ -x "$jupyter" ] || jupyter=$(command -v jupyter || true)
missing=()
[ -n "$jupyter" ] || missing+=("jupyter (apt-get install jupyter-nbconvert)")
command -v goimports >/dev/null || missing+=("goimports (go install golang.org/x/tools/cmd/goimports@v0.52.0)")
command -v gonb >/dev/null || missing+=("gonb (go install -modfile=tools/gonb.mod github.com/janpfeifer/gonb)")
if [ -n "$jupyter" ] && ! /usr/bin/python3 -c 'from jupyter_client.kernelspec import KernelSpecManager as K; K().get_kernel_spec("gonb")' 2>/dev/null; then
  missing+=("the gonb kernel (gonb --install --raw_error --force_deps)")
fi
if [ ${#missing[@]} -gt 0 ]; then
  printf 'run-notebooks.sh: missing %s\n' "${missing[@]}" >&2
  echo "run-notebooks.sh: .ci/run installs all of these" >&2
  exit 1
fi

mkdir -p "$out" build/bin
go build -o build/bin/nbcheck ./internal/tools/nbcheck

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
# show_log prints the useful part of a log: from nbclient's exception (the
# cell, and the compiler's message or the timeout) if there is one, else the end of the
# log, without the kernel's klog info lines.
show_log() {
  if grep -q '^nbclient\.exceptions\.' "$1"; then
    sed -n '/^nbclient\.exceptions\./,$p' "$1"
  else
    grep -Ev '^I[0-9]{4} ' "$1" | tail -n 40
  fi | head -n 60 | sed 's/^/    | /'
}

# kill_kernel ends what is left of one execution after nbconvert was killed:
# Jupyter starts the kernel in its own session, so it would outlive nbconvert.
# Every process of that run (kernel and cell programs) inherits a unique
# EVALBOOK_NB_RUN value, which is how they are found.
kill_kernel() {
  local sig pids
  for sig in TERM KILL; do
    pids=$(grep -lsaF "EVALBOOK_NB_RUN=$1" /proc/[0-9]*/environ | cut -d/ -f3 || true)
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086
    kill -s "$sig" $pids 2>/dev/null || true
    sleep 2
  done
}

status=0
for nb in "${notebooks[@]}"; do
  name=$(basename "$nb" .ipynb)
  log=$root/$out/$name.log
  rm -f "$out/$name.ipynb" "$out/$name.html" "$log"
  start=$(now)
  run_id="$$-$name-$RANDOM$RANDOM"
  rc=0
  EVALBOOK_NB_RUN=$run_id timeout --kill-after=30 "$nb_timeout" "$jupyter" nbconvert --to notebook --execute \
    --ExecutePreprocessor.kernel_name=gonb \
    --ExecutePreprocessor.timeout="$cell_timeout" \
    --output-dir "$out" --output "$name" "$nb" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      kill_kernel "$run_id"
      echo "FAIL $nb: timed out after $(elapsed "$start") (NB_TIMEOUT=$nb_timeout s per notebook; log: $out/$name.log)"
    else
      echo "FAIL $nb: execution failed after $(elapsed "$start") (log: $out/$name.log)"
    fi
    show_log "$log"
    status=1
    continue
  fi
  exec_time=$(elapsed "$start")
  against=()
  if [ "$compare" -eq 1 ]; then
    against=(-against "$nb")
  fi
  if ! build/bin/nbcheck -q "${nbcheck_flags[@]}" "${against[@]}" "$out/$name.ipynb"; then
    echo "FAIL $nb: executed in $exec_time but the checker found problems (executed copy: $out/$name.ipynb)"
    status=1
    continue
  fi
  if [ "$update" -eq 1 ]; then
    if [ "$(cd "$(dirname "$nb")" && pwd)" != "$root/notebooks" ] || [ ! -f "notebooks/src/$name.nb" ]; then
      echo "FAIL $nb: --update writes only notebooks/NAME.ipynb made from notebooks/src/NAME.nb"
      status=1
      continue
    fi
    /usr/bin/python3 scripts/nbgen.py --outputs "$out" "$name" || { status=1; continue; }
    if ! /usr/bin/python3 scripts/nbhtml.py "notebooks/$name.ipynb" >>"$log" 2>&1; then
      echo "FAIL $nb: publishing docs/notebooks/$name.html failed (log: $out/$name.log)"
      show_log "$log"
      status=1
      continue
    fi
  fi
  # nbhtml.py refuses a page that still loads file:/// scripts.
  if ! /usr/bin/python3 scripts/nbhtml.py --out "$out" "$out/$name.ipynb" >>"$log" 2>&1; then
    echo "FAIL $nb: HTML export failed (log: $out/$name.log)"
    show_log "$log"
    status=1
    continue
  fi
  published=""
  [ "$update" -eq 1 ] && published=", published as docs/notebooks/$name.html"
  echo "ok   $nb: executed in $exec_time, checked, exported to $out/$name.html$published (total $(elapsed "$start"))"
done
exit $status
