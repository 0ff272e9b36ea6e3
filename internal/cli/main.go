package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/evalbook/evalbook/internal/outfile"
)

// StopGrace is how long a command has, after SIGINT or SIGTERM, to stop
// on its own (a judge run saves its cache and says how to resume) before
// the process removes its temporary files and exits.
const StopGrace = 3 * time.Second

// Main runs the command line args with the process's streams and returns
// the exit status. SIGINT or SIGTERM cancels the run's context; after
// StopGrace (or a second signal) the temporary files are removed and the
// process exits 130 or 143, as shells report those signals.
func Main(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		cancel()
		select {
		case <-sig: // a second signal: stop now
		case <-time.After(StopGrace):
		}
		outfile.RemoveTemps()
		code := 130 // 128 + SIGINT
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
	err := Run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	outfile.RemoveTemps() // every command commits or aborts its files; this is the safety net
	if err != nil && !IsSilent(err) {
		fmt.Fprintln(os.Stderr, "evalbook:", err)
	}
	return ExitCode(err)
}
