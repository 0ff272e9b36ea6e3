#!/bin/sh
# setup.sh: what each notebook's first code cell runs (GoNB's !* runs it in
# the notebook's scratch Go module). It points that module at the evalbook
# checkout this folder belongs to, wherever it was cloned, so the notebook's
# imports of github.com/evalbook/evalbook/... compile this checkout's code.
# The -require names the version Go gives a module that a replace provides.
set -eu
root=$(cd "$GONB_DIR" && dirname "$(go env GOMOD)")
exec go mod edit -replace=github.com/evalbook/evalbook="$root" -require=github.com/evalbook/evalbook@v0.0.0-00010101000000-000000000000
