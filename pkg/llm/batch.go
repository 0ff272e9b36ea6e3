package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// BatchOptions configure SampleBatch.
type BatchOptions struct {
	// StatePath is the file that remembers the batches submitted and not
	// yet downloaded (JSON), so that a killed run resumes them instead of
	// submitting the same requests again. Required.
	StatePath string
	// Poll is the wait between status checks (default 10 s).
	Poll time.Duration
	// Window is the completion window asked for (default "24h").
	Window string
	Logf   func(format string, args ...any)
}

// BatchStats count what SampleBatch did.
type BatchStats struct {
	Cached    int `json:"cached"`    // requests already in the cache, not submitted
	Submitted int `json:"submitted"` // requests sent in new batches
	Resumed   int `json:"resumed"`   // batches of an earlier run polled again
	Received  int `json:"received"`  // replies put in the cache
	Failed    int `json:"failed"`    // requests the batch answered with an error
	// Malformed counts the requests among Failed that the batch answered
	// with a 200 reply that does not parse: recorded in the cache as
	// failed (they were paid for), not asked again online.
	Malformed int `json:"malformed"`
	// Recorded counts requests not submitted because an earlier run
	// recorded them in the cache as failed (Config.RetryFailed submits them).
	Recorded int `json:"recorded"`
}

type batchState struct {
	// Batches maps a batch id to the API path of its requests.
	Batches map[string]string `json:"batches"`
	// Chat names the batches of chat requests (Complete's, from
	// BatchJob.Chats), whose replies are cached as Complete caches them.
	Chat map[string]bool `json:"chat,omitempty"`
}

// A BatchJob is what Batch submits: the sampling requests of a task run
// (answered later by Sample) and the chat requests of generate or judge
// (answered later by Complete; Collect records them).
type BatchJob struct {
	Samples []SampleRequest
	Chats   []Request
}

// batchItem is one request of a batch: its cache key (the custom_id) and
// its key of format 1 on an endpoint, API path, body, the prompt hash it is cached with, and the parser of
// its reply (as Sample or Complete would parse it).
type batchItem struct {
	key, path, hash string
	oldKey          func(endpoint string) string // the key of format 1
	chat            bool
	body            func() ([]byte, error)
	parse           func([]byte) (string, error)
}

// SampleBatch is Batch with sampling requests only.
func (c *Client) SampleBatch(ctx context.Context, reqs []SampleRequest, opt BatchOptions) (BatchStats, error) {
	return c.Batch(ctx, BatchJob{Samples: reqs}, opt)
}

// Batch answers a job's requests through the OpenAI Batch API and puts
// every reply in the client's cache, so that Sample and Complete then
// find each one there and a batch run gives what an online run gives.
// Requests already cached are not sent; identical requests are sent once.
// Batches named in StatePath (an earlier run killed while waiting) are
// polled and downloaded first, and are removed from it only after their
// replies are cached, so a rerun never submits a request twice. Requests
// are grouped by API path and kind (one batch each: the API takes one
// endpoint per batch). A request the batch answered with an error is left
// uncached, and Sample or Complete then asks for it online; one answered
// with a 200 reply that does not parse (paid for) is recorded in the cache
// as failed, so that the online pass does not buy it again. A request an
// earlier run recorded as failed is not submitted unless
// Config.RetryFailed is set.
func (c *Client) Batch(ctx context.Context, job BatchJob, opt BatchOptions) (BatchStats, error) {
	var st BatchStats
	if opt.StatePath == "" {
		return st, errors.New("batch: no state file")
	}
	if opt.Poll <= 0 {
		opt.Poll = 10 * time.Second
	}
	if opt.Window == "" {
		opt.Window = "24h"
	}
	items, err := c.batchItems(job)
	if err != nil {
		return st, err
	}
	// The parsers of this job's requests also check the replies of
	// resumed batches (the same command run again asks the same). A batch
	// submitted before keys left the endpoint out has format-1 custom_ids:
	// known holds those too, and their replies are cached under the
	// current key.
	known := make(map[string]batchItem, 2*len(items))
	for _, it := range items {
		known[it.key] = it
		known[it.oldKey(c.endpoint)] = it
	}
	state, err := readBatchState(opt.StatePath)
	if err != nil {
		return st, err
	}
	for _, id := range slices.Sorted(maps.Keys(state.Batches)) {
		st.Resumed++
		if err := c.finishBatch(ctx, id, state, opt, &st, known); err != nil {
			return st, err
		}
	}
	byGroup, err := c.pendingLines(items, &st)
	if err != nil {
		return st, err
	}
	groups := slices.SortedFunc(maps.Keys(byGroup), func(a, b batchGroup) int {
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		switch {
		case !a.chat && b.chat:
			return -1
		case a.chat && !b.chat:
			return 1
		}
		return 0
	})
	for _, g := range groups {
		if err := c.submitBatch(ctx, g, byGroup[g], state, opt, &st, known); err != nil {
			return st, err
		}
	}
	return st, nil
}

// batchItems are the job's requests: samples and completions as Sample
// and Complete prepare them, chats as Chat does.
func (c *Client) batchItems(job BatchJob) ([]batchItem, error) {
	items := make([]batchItem, 0, len(job.Samples)+len(job.Chats))
	for _, r := range job.Samples {
		pr, err := c.prepare(r)
		if err != nil {
			return nil, err
		}
		items = append(items, batchItem{key: pr.key, oldKey: pr.oldKey, path: pr.path, hash: r.PromptHash, body: pr.body, parse: pr.parse})
	}
	for _, r := range job.Chats {
		items = append(items, batchItem{key: CacheKey(c.cfg.Model, r.PromptHash, r.System, r.User, c.params), oldKey: c.oldChatKey(r),
			path: "/chat/completions", hash: r.PromptHash, chat: true,
			body: func() ([]byte, error) { return c.chatBody(r) }, parse: parseChat})
	}
	return items, nil
}

// batchLine is one request line of a batch input file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// batchGroup is the requests of one batch: one path, one kind.
type batchGroup struct {
	path string
	chat bool
}

// pendingLines is what is left to ask, by path and kind, once per key:
// the items neither cached nor recorded as failed (unless failures are
// retried); st counts the cached and recorded ones.
func (c *Client) pendingLines(items []batchItem, st *BatchStats) (map[batchGroup][]batchLine, error) {
	byGroup := map[batchGroup][]batchLine{}
	sent := map[string]bool{}
	for _, it := range items {
		_, ok, err := c.cached(it.key, it.oldKey, it.hash)
		if err != nil {
			return nil, err
		}
		if ok {
			st.Cached++
			continue
		}
		if _, _, fl, _ := c.cache.peek(it.key); fl != nil && fl.rec != nil && (!fl.earlier || !c.cfg.RetryFailed) {
			st.Recorded++
			continue
		}
		if sent[it.key] {
			continue
		}
		sent[it.key] = true
		body, err := it.body()
		if err != nil {
			return nil, err
		}
		g := batchGroup{it.path, it.chat}
		byGroup[g] = append(byGroup[g], batchLine{it.key, http.MethodPost, "/v1" + it.path, body})
	}
	return byGroup, nil
}

// submitBatch uploads one group's lines, creates its batch, records it in
// the state file before anything else (a kill from then on resumes it)
// and waits for it to finish.
func (c *Client) submitBatch(ctx context.Context, g batchGroup, lines []batchLine, state *batchState, opt BatchOptions, st *BatchStats, known map[string]batchItem) error {
	var buf bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		buf.Write(b)
		buf.WriteByte('\n')
	}
	fileID, err := c.uploadBatchFile(ctx, buf.Bytes())
	if err != nil {
		return err
	}
	var created struct {
		ID string `json:"id"`
	}
	if err := c.batchJSON(ctx, http.MethodPost, "/batches", map[string]any{"input_file_id": fileID, "endpoint": "/v1" + g.path, "completion_window": opt.Window}, &created); err != nil {
		return err
	}
	if created.ID == "" {
		return errors.New("batch: the server created a batch without an id")
	}
	state.Batches[created.ID] = g.path
	if g.chat {
		state.Chat[created.ID] = true
	}
	if err := writeBatchState(opt.StatePath, state); err != nil {
		return err
	}
	st.Submitted += len(lines)
	if opt.Logf != nil {
		opt.Logf("batch %s: %d requests to %s submitted", created.ID, len(lines), g.path)
	}
	return c.finishBatch(ctx, created.ID, state, opt, st, known)
}

// finishBatch polls batch id until it ends, caches its replies and
// forgets it in the state file. known holds the parsers of the job's
// requests, which check each reply as Sample or Complete would; a reply
// to a request the job does not hold (a batch of another run) is kept
// when it parses as a reply of the batch's kind.
func (c *Client) finishBatch(ctx context.Context, id string, state *batchState, opt BatchOptions, st *BatchStats, known map[string]batchItem) error {
	var b struct {
		Status       string `json:"status"`
		OutputFileID string `json:"output_file_id"`
	}
	for {
		if err := c.batchJSON(ctx, http.MethodGet, "/batches/"+id, nil, &b); err != nil {
			return err
		}
		switch b.Status {
		case "completed":
		case "failed", "expired", "cancelled":
			return fmt.Errorf("batch %s ended %s; remove it from the state file to submit again", id, b.Status)
		default:
			t := time.NewTimer(opt.Poll)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			}
			continue
		}
		break
	}
	if b.OutputFileID != "" {
		data, err := c.batchGet(ctx, "/files/"+b.OutputFileID+"/content")
		if err != nil {
			return err
		}
		chatPath := state.Batches[id] == "/chat/completions"
		for _, ln := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(ln)) == 0 {
				continue
			}
			var out struct {
				CustomID string `json:"custom_id"`
				Response *struct {
					StatusCode int             `json:"status_code"`
					Body       json.RawMessage `json:"body"`
				} `json:"response"`
			}
			if err := json.Unmarshal(ln, &out); err != nil || out.CustomID == "" {
				return fmt.Errorf("batch %s: output line is not a batch result: %.100s", id, ln)
			}
			if out.Response == nil || out.Response.StatusCode != http.StatusOK {
				st.Failed++
				continue
			}
			it, ok := known[out.CustomID]
			switch {
			case ok:
			case state.Chat[id]:
				it = batchItem{parse: parseChat}
			default:
				it = batchItem{parse: func(d []byte) (string, error) { return parseAny(d, chatPath) }}
			}
			key := out.CustomID
			if ok {
				key = it.key // the same, unless the batch has format-1 custom_ids
			}
			reply, err := it.parse(out.Response.Body)
			if err != nil {
				// Paid for: recorded, so the online pass does not buy it again.
				st.Failed++
				st.Malformed++
				f := Failure{Kind: "malformed", Status: http.StatusOK, Error: fmt.Sprintf("batch %s: %v (not asked again online: the batch's reply was paid for)", id, err)}
				if err := c.cache.PutFailure(key, c.cfg.Model, it.hash, f); err != nil {
					return err
				}
				continue
			}
			if err := c.cache.Put(key, c.cfg.Model, it.hash, reply); err != nil {
				return err
			}
			st.Received++
		}
	}
	delete(state.Batches, id)
	delete(state.Chat, id)
	return writeBatchState(opt.StatePath, state)
}

// parseAny parses a resumed batch's reply with whatever number of choices
// it holds.
func parseAny(data []byte, chat bool) (string, error) {
	var probe struct {
		Choices []json.RawMessage `json:"choices"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return "", err
	}
	return parseSampled(data, chat, len(probe.Choices), false)
}

func (c *Client) batchRequest(ctx context.Context, method, path string, body io.Reader, ctype string) ([]byte, error) {
	hr, err := c.newRequest(ctx, method, path, body, ctype)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("batch %s %s: %w", method, path, c.scrub(stripURL(err)))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<30))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, c.scrub(fmt.Errorf("batch %s %s: HTTP %d: %s", method, path, resp.StatusCode, snippet(data)))
	}
	return data, nil
}

func (c *Client) batchGet(ctx context.Context, path string) ([]byte, error) {
	return c.batchRequest(ctx, http.MethodGet, path, nil, "")
}

func (c *Client) batchJSON(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	ctype := ""
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body, ctype = bytes.NewReader(b), "application/json"
	}
	data, err := c.batchRequest(ctx, method, path, body, ctype)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("batch %s %s: %w", method, path, err)
	}
	return nil
}

func (c *Client) uploadBatchFile(ctx context.Context, jsonl []byte) (string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("purpose", "batch")
	sum := sha256.Sum256(jsonl)
	fw, err := mw.CreateFormFile("file", "evalbook-"+hex.EncodeToString(sum[:6])+".jsonl")
	if err != nil {
		return "", err
	}
	fw.Write(jsonl)
	mw.Close()
	data, err := c.batchRequest(ctx, http.MethodPost, "/files", &buf, mw.FormDataContentType())
	if err != nil {
		return "", err
	}
	var f struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.ID == "" {
		return "", fmt.Errorf("batch: file upload gave no id: %s", snippet(data))
	}
	return f.ID, nil
}

// PendingBatches returns the number of batches the state file at path
// names as submitted and not yet downloaded (0 when there is no file).
func PendingBatches(path string) (int, error) {
	st, err := readBatchState(path)
	if err != nil {
		return 0, err
	}
	return len(st.Batches), nil
}

func readBatchState(path string) (*batchState, error) {
	st := &batchState{Batches: map[string]string{}, Chat: map[string]bool{}}
	data, err := readStateFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return st, nil
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("batch state %s: %w", path, err)
	}
	if st.Batches == nil {
		st.Batches = map[string]string{}
	}
	if st.Chat == nil {
		st.Chat = map[string]bool{}
	}
	return st, nil
}

// writeBatchState replaces the state file atomically (a temporary file
// renamed over it), so a kill leaves the old state or the new.
func writeBatchState(path string, st *batchState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".batch-state-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	tmp.Close()
	return os.Rename(tmp.Name(), path)
}

// Collect returns the chat requests run makes of the Completer it is
// given, in the order made, without sending any: each is answered with an
// empty reply. It turns an online pass (generate.Run, a judge over a
// table) into the requests of a BatchJob, so the batch asks exactly what
// the online pass asks, and that pass, run next on the real client,
// finds every reply in the cache. run must make the same requests
// whatever the replies are (one request per row, as generate and judge
// do); run's own result is discarded, its error returned.
func Collect(run func(Completer) error) ([]Request, error) {
	r := &collector{}
	err := run(r)
	return r.reqs, err
}

type collector struct {
	mu   sync.Mutex
	reqs []Request
}

func (r *collector) Complete(_ context.Context, req Request) (string, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return "", nil
}

// maxStateFile bounds a batch state file: it holds a few ids a batch.
const maxStateFile = 64 << 20

// readStateFile reads the state file at path, refusing one larger than
// maxStateFile (not a state file evalbook wrote).
func readStateFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, fmt.Errorf("batch state %s: %w", path, err)
	}
	if len(data) > maxStateFile {
		return nil, fmt.Errorf("batch state %s: larger than %s, more than a state file holds: is it one evalbook wrote?", path, sizeOf(maxStateFile))
	}
	return data, nil
}
