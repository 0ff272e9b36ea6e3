// Package cli is the framework of the evalbook command (package main in
// report/), and serves only it: an [App] holds the commands, their --help
// texts and the version; [App.Run] dispatches one command line and
// [App.Main] runs it as the process, turning SIGINT and SIGTERM into a
// cancelled context. Errors map to the exit statuses of DESIGN.md
// ([ExitCode]): 0 success or help, 1 bad data or failed I/O, 2 a usage
// error ([Usagef]), 3 a gate or check that ran and failed
// ([ExitGateFailed]).
//
// A command is a [Command] value whose Run receives an [Env]. It declares
// its flags with [NewFlags] and the shared declarations (interval flags,
// --ci choices, --normalize, columns, the LLM client and --batch,
// --record/--store, workbook limits, --raw-csv, --xlsx/--html/--json),
// parses them with [ParseFlags] (flags may appear anywhere among the
// positional arguments), calls the library and renders the result with
// [Render]. Output files go through internal/outfile: written beside the
// target and put in place on commit, so an interrupted run leaves the old
// file whole.
//
// Every flag naming a path says what the command does with it
// ([InputFlag], [OutputFlag], [OutputDirFlag], or [PathFlag] with a
// [Role]), and ParseFlags is told whether the positional arguments are
// files read ([InputArgs]) or not ([WordArgs]). ParseFlags then runs the
// output guard: an output that is, resolves to or lies inside an input of
// the same run, or two outputs on one file, is a usage error before
// anything is read or written. A path flag declared with fs.String is
// reported as a bug, and [App.Declared] lets report/'s test point every
// output of every command at every input.
//
// The package keeps no state of its own between calls: everything a
// command needs comes through its Env or the values the flag declarations
// return. (Two flags set limits that live in other packages,
// tabular.Limit and xlsxread.Limit, which is how the readers read them.)
package cli
