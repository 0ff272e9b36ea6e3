package cli

import (
	"context"
	"fmt"
	"io"
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

// Main runs the command line args with the process's streams, prints the
// error (if any) on stderr, and returns the exit status. SIGINT or SIGTERM
// cancels the run's context; if the command has not returned StopGrace
// later (or at a second signal), the temporary files are removed and the
// process exits 130 or 143, as shells report those signals.
func (a *App) Main(args []string) int {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	return a.main(args, os.Stdin, os.Stdout, os.Stderr, sig, StopGrace, os.Exit)
}

// main is Main with its streams, signals, grace and exit as arguments, so
// a test can send a signal and see the exit.
func (a *App) main(args []string, stdin io.Reader, stdout, stderr io.Writer, sig <-chan os.Signal, grace time.Duration, exit func(int)) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	stopped := make(chan struct{}) // the signal goroutine has returned
	go func() {
		defer close(stopped)
		var s os.Signal
		select {
		case s = <-sig:
		case <-done:
			return
		}
		cancel()
		select {
		case <-sig: // a second signal: stop now
		case <-time.After(grace):
		case <-done: // the command stopped on its own
			return
		}
		outfile.RemoveTemps()
		exit(signalStatus(s))
	}()
	err := a.Run(ctx, args, stdin, stdout, stderr)
	close(done)
	<-stopped
	outfile.RemoveTemps() // every command commits or aborts its files; this is the safety net
	if err != nil && !IsSilent(err) {
		fmt.Fprintln(stderr, "evalbook:", err)
	}
	return ExitCode(err)
}

// signalStatus is the exit status shells report for a process killed by
// s: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
func signalStatus(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 128 + int(syscall.SIGINT)
}
