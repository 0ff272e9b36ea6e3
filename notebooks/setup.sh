#!/bin/sh
# setup.sh: what each notebook's first code cell runs (GoNB's !* runs it in
# the notebook's scratch Go module, $GONB_TMP_DIR). It points that module at
# the evalbook checkout this folder belongs to, wherever it was cloned, so the
# notebook's imports of github.com/evalbook/evalbook/... compile this
# checkout's code. The -require names the version Go gives a module that a
# replace provides.
#
# Then it resolves, once, every module a notebook may import, at the versions
# this checkout uses: a throw-away file in the scratch module imports every
# package under pkg/, datasets/ and notebooks/nbkit and the third-party
# packages the notebooks use (gonum plot, gota, excelize, gonbui), and one
# `go get` writes their requirements and checksums. After that the cells
# need no `go get` of their own, so the setup cell turns GoNB's per-cell one
# off with %noautoget: that `go get` asks the module proxy about every
# imported evalbook package on every cell (0.3 to 0.9 s a cell here). A cell
# that imports a module outside this list fails to build with "no required
# module provides package ..."; run %autoget in the notebook to go back to
# GoNB's default.
#
# Then it compiles, once, in one parallel `go build` (which writes nothing
# but the build cache), the packages every notebook's cells need: pkg/nb,
# pkg/chart and the rest of pkg/ with gonum plot, gota and gonbui. On a cold
# build cache this is where most of the compiling happens, instead of in the
# first cell that imports evalbook; on a warm cache it costs a second or
# two. Left out are the packages that need SQLite (pkg/store, pkg/runsite:
# notebook 06), excelize (pkg/xlsxreport, xlsxread, labelbook: 02, 12) or
# Parquet (pkg/output, pkg/parquetio, through Arrow, gRPC and protobuf: 09,
# 11): compiling those takes several times as long, and only the first cell
# that imports one of them pays for it. The Docker image compiles everything
# when it is built.
#
# The setup cell also sets %goflags -ldflags=-w: every cell is linked into a
# new program, and leaving out the DWARF debug information (which nothing in
# a notebook reads; panics still print their stack) cut a cell's build by
# a fifth to a half here.
set -eu
root=$(cd "$GONB_DIR" && dirname "$(go env GOMOD)")
go mod edit -replace=github.com/evalbook/evalbook="$root" -require=github.com/evalbook/evalbook@v0.0.0-00010101000000-000000000000
others="gonum.org/v1/plot gonum.org/v1/plot/plotter gonum.org/v1/plot/vg
  github.com/go-gota/gota/dataframe github.com/go-gota/gota/series
  github.com/janpfeifer/gonb/gonbui"
# One line per package: its import path, and "heavy" after it if it needs
# SQLite, excelize or Parquet (Arrow, with gRPC and protobuf).
list=$(cd "$root" && go list -e -f '{{if and (ne .Name "main") (not .Error)}}{{.ImportPath}}{{range .Deps}}{{if or (eq . "modernc.org/sqlite") (eq . "github.com/xuri/excelize/v2") (eq . "github.com/apache/arrow-go/v18/parquet")}} heavy{{end}}{{end}}{{end}}' ./pkg/... ./datasets/... ./notebooks/nbkit/...)
pkgs=$(echo "$list" | awk 'NF { print $1 }')
warm=$(echo "$list" | awk 'NF == 1')
{
  echo 'package main'
  for p in $pkgs $others github.com/xuri/excelize/v2; do
    echo "import _ \"$p\""
  done
} >zz_setup_imports.go
log=$(mktemp)
if ! go get >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log" zz_setup_imports.go
  exit 1
fi
rm -f zz_setup_imports.go
# shellcheck disable=SC2086
if ! go build $warm $others >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
