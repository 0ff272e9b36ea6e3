// Command evalbook is documented in doc.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	app, err := newApp()
	if err != nil { // a command without its help file: a build mistake, caught by TestEveryCommandHasHelp
		fmt.Fprintln(os.Stderr, "evalbook:", err)
		os.Exit(1)
	}
	os.Exit(app.Main(os.Args[1:]))
}
