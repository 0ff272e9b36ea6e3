package main

import (
	"embed"

	"github.com/evalbook/evalbook/internal/cli"
)

// helpFiles holds each command's --help text (usage line, description,
// examples): help/<command>.txt, a two-word command's space written as "-".
//
//go:embed help/*.txt
var helpFiles embed.FS

func init() {
	cli.HelpFiles = helpFiles
	cli.Version = version
}
