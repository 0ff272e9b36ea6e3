package llm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// Chat requests (generate's and judge's, recorded by Collect) go through
// Batch into the cache: a run stopped while its batch is pending resumes
// it from the state file, submits nothing twice, and Complete then gives
// the online replies without an online call.
func TestBatchChats(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox")
	m.Chat = func(user string, _ int) string { return "reply to " + user }
	reqs, err := Collect(func(c Completer) error {
		for i := range 5 {
			// Request 4 repeats request 0: sent once.
			if _, err := c.Complete(context.Background(), Request{PromptHash: "h", System: "be brief", User: fmt.Sprint("q", i%4)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || len(reqs) != 5 || reqs[1].User != "q1" || reqs[4].User != "q0" {
		t.Fatalf("Collect: %v %+v", err, reqs)
	}
	bs := tasktest.NewBatch(t, m)
	cl, err := NewClient(Config{BaseURL: bs.BaseURL(), Model: "bigram", Cache: NewMemoryCache()})
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state.json")
	bs.SetHold(true)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	_, err = cl.Batch(ctx, BatchJob{Chats: reqs}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("held batch: %v", err)
	}
	if b, _ := os.ReadFile(state); !strings.Contains(string(b), `"batch-1": true`) {
		t.Fatalf("the state file does not name the chat batch: %s", b)
	}
	bs.SetHold(false)
	st, err := cl.Batch(context.Background(), BatchJob{Chats: reqs}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if st != (BatchStats{Cached: 5, Resumed: 1, Received: 4}) || bs.Created != 1 || len(bs.Submitted) != 4 {
		t.Fatalf("stats %+v, %d batches, %d submitted", st, bs.Created, len(bs.Submitted))
	}
	for i := range 4 {
		got, err := cl.Complete(context.Background(), reqs[i])
		if want := "reply to " + reqs[i].User; err != nil || got != want {
			t.Fatalf("Complete(%s) = %q, %v; want %q", reqs[i].User, got, err, want)
		}
	}
	if bs.Online != 0 {
		t.Fatalf("%d online calls after the batch", bs.Online)
	}
	if b, _ := os.ReadFile(state); strings.Contains(string(b), "batch-1") {
		t.Fatalf("the finished batch is still in the state file: %s", b)
	}
	// A rerun finds everything cached: no batch.
	if st, err := cl.Batch(context.Background(), BatchJob{Chats: reqs}, BatchOptions{StatePath: state}); err != nil || st != (BatchStats{Cached: 5}) || bs.Created != 1 {
		t.Fatalf("rerun: %+v %v, %d batches", st, err, bs.Created)
	}
}

// A resumed chat batch whose requests the new job does not hold (another
// command's) still caches them as Complete would, by the kind its state
// recorded.
func TestBatchResumeOtherJob(t *testing.T) {
	m := tasktest.NewModel("abc")
	m.Chat = func(user string, _ int) string { return "R:" + user }
	bs := tasktest.NewBatch(t, m)
	cache := NewMemoryCache()
	cl, err := NewClient(Config{BaseURL: bs.BaseURL(), Model: "bigram", Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state.json")
	bs.SetHold(true)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	cl.Batch(ctx, BatchJob{Chats: []Request{{User: "x"}}}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond})
	cancel()
	bs.SetHold(false)
	if _, err := cl.Batch(context.Background(), BatchJob{}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if got, err := cl.Complete(context.Background(), Request{User: "x"}); err != nil || got != "R:x" || bs.Online != 0 {
		t.Fatalf("Complete = %q, %v, %d online", got, err, bs.Online)
	}
}
