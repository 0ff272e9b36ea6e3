package main

import (
	"embed"
	"slices"

	"github.com/evalbook/evalbook/report/internal/cli"
)

// helpFiles holds each command's --help text (usage line, description,
// examples): help/<command>.txt, a two-word command's space written as "-".
//
//go:embed help/*.txt
var helpFiles embed.FS

// commands is every command of evalbook: each file cmd_*.go (and score.go)
// declares its own, and this list is the one place that names them all.
func commands() []cli.Command {
	return slices.Concat(
		[]cli.Command{aaCommand, agreeCommand, calibrateCommand, compareCommand, correctCommand, gateCommand, generateCommand,
			historyCommand, importCommand, irtCommand, judgeCommand, juryCommand, leaderboardCommand, mcCommand, powerCommand,
			probesCommand, ratingsCommand, repeatsCommand, reportCommand, runCommand, scoreCommand, summarizeCommand},
		casesCommands, labelCommands, planCommands, runsCommands, taskCommands)
}

// newApp is the evalbook command line: its commands, help texts and version.
func newApp() (*cli.App, error) { return cli.New(version, helpFiles, commands()...) }
