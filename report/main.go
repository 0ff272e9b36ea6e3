// Command evalbook is documented in doc.go.
package main

import (
	"os"

	"github.com/evalbook/evalbook/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
