// Command evalbook is documented in doc.go.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/evalbook/evalbook/internal/cli"
	"github.com/evalbook/evalbook/internal/outfile"
)

// stopGrace is how long a command has, after SIGINT or SIGTERM, to stop
// on its own (a judge run saves its cache and says how to resume) before
// the process removes its temporary files and exits.
const stopGrace = 3 * time.Second

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		cancel()
		select {
		case <-sig: // a second signal: stop now
		case <-time.After(stopGrace):
		}
		outfile.RemoveTemps()
		code := 130 // 128 + SIGINT, as shells report it
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
	err := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	outfile.RemoveTemps() // every command commits or aborts its files; this is the safety net
	if err != nil {
		if !cli.IsSilent(err) {
			fmt.Fprintln(os.Stderr, "evalbook:", err)
		}
		os.Exit(cli.ExitCode(err))
	}
}
