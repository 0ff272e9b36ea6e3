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

// A batch submitted before key format 2 (its custom_ids are format-1
// keys, which hashed the endpoint) and pending when evalbook was upgraded
// is resumed: its replies are cached under the requests' current keys, so
// Complete finds them, nothing is submitted again and no call is made
// online. A cache file of format 1 counts its replies as cached.
func TestBatchOldCustomIDs(t *testing.T) {
	m := tasktest.NewModel("abc")
	m.Chat = func(user string, _ int) string { return "R:" + user }
	bs := tasktest.NewBatch(t, m)
	cl, err := NewClient(Config{BaseURL: bs.BaseURL(), Model: "bigram", Cache: NewMemoryCache()})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []Request{{PromptHash: "h", User: "x"}, {PromptHash: "h", User: "y"}}
	// The old run's submission: format-1 custom_ids.
	var in strings.Builder
	for _, r := range reqs {
		body, _ := cl.chatBody(r)
		fmt.Fprintf(&in, `{"custom_id":%q,"method":"POST","url":"/v1/chat/completions","body":%s}`+"\n", oldChatKey(bs.BaseURL(), "bigram", r.PromptHash, r.System, r.User, cl.params), body)
	}
	ctx := context.Background()
	fileID, err := cl.uploadBatchFile(ctx, []byte(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID string `json:"id"`
	}
	if err := cl.batchJSON(ctx, "POST", "/batches", map[string]any{"input_file_id": fileID, "endpoint": "/v1/chat/completions", "completion_window": "24h"}, &created); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(state, []byte(`{"batches": {"`+created.ID+`": "/chat/completions"}, "chat": {"`+created.ID+`": true}}`), 0o644)
	st, err := cl.Batch(ctx, BatchJob{Chats: reqs}, BatchOptions{StatePath: state, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if st != (BatchStats{Cached: 2, Resumed: 1, Received: 2}) || bs.Created != 1 {
		t.Fatalf("stats %+v, %d batches; want the old batch resumed, its 2 replies cached and nothing submitted", st, bs.Created)
	}
	for _, r := range reqs {
		if got, err := cl.Complete(ctx, r); err != nil || got != "R:"+r.User {
			t.Fatalf("Complete(%s) = %q, %v", r.User, got, err)
		}
	}
	if bs.Online != 0 {
		t.Fatalf("%d online calls", bs.Online)
	}

	// A format-1 cache file on the batch's endpoint: nothing to submit.
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	var old strings.Builder
	for _, r := range reqs {
		fmt.Fprintf(&old, `{"key":%q,"model":"bigram","prompt":"h","reply":"R:%s"}`+"\n", oldChatKey(bs.BaseURL(), "bigram", r.PromptHash, r.System, r.User, cl.params), r.User)
	}
	os.WriteFile(path, []byte(old.String()), 0o644)
	cache, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	cl2, _ := NewClient(Config{BaseURL: bs.BaseURL(), Model: "bigram", Cache: cache})
	st, err = cl2.Batch(ctx, BatchJob{Chats: reqs}, BatchOptions{StatePath: filepath.Join(t.TempDir(), "s2.json")})
	if err != nil || st != (BatchStats{Cached: 2}) || bs.Created != 1 || cache.Migrated() != 2 {
		t.Fatalf("format-1 cache: %+v %v, %d batches, %d re-keyed", st, err, bs.Created, cache.Migrated())
	}
}
