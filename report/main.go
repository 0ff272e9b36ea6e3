// Command evalbook is documented in doc.go.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !isSilent(err) {
			fmt.Fprintln(os.Stderr, "evalbook:", err)
		}
		os.Exit(exitCode(err))
	}
}
