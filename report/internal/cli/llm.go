package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/evalbook/evalbook/pkg/llm"
)

// ClientFlags are the flags of an OpenAI-compatible client (pkg/llm),
// shared by generate, judge, calibrate and probes: one declaration, one
// check, one way to open the client with its reply cache.
type ClientFlags struct {
	S           llm.Settings
	cache       string
	MaxTokens   int // generate's --max-tokens; 0 is the endpoint's default
	maxReplyMiB int64
	headers     MultiFlag // --header NAME=env:VARIABLE
	cacheName   string    // the default cache file in the user cache directory
	logAs       string    // the client's log lines read "evalbook: <logAs>: ..."
	cmd         string
}

// AddClientFlags declares the client flags on fs, with concurrency
// requests in flight by default and the reply cache cacheName
// (e.g. "judge-cache.jsonl") in evalbook's user cache directory.
func AddClientFlags(fs *flag.FlagSet, concurrency int, cacheName, logAs string) *ClientFlags {
	cf := &ClientFlags{cacheName: filepath.Join("evalbook", cacheName), logAs: logAs, cmd: fs.Name()}
	fs.StringVar(&cf.S.Model, "model", "", "model `NAME` as the endpoint knows it")
	fs.StringVar(&cf.S.APIKeyEnv, "api-key-env", llm.DefaultConfig.APIKeyEnv, "environment `variable` holding the API key (unset: no key sent)")
	PathFlag(fs, &cf.cache, "cache", "", InputOutput, "reply cache `FILE` (JSON Lines, append-only; keyed by model and request, not by endpoint URL); default evalbook/"+cacheName+" in the user cache directory; none: memory only").Default(cacheFile(cf.cacheName)).Companions(batchStateSuffix)
	fs.IntVar(&cf.S.Concurrency, "concurrency", concurrency, "`N` requests in flight at once")
	fs.IntVar(&cf.S.RPM, "rpm", 0, "at most `N` requests per minute (0: no limit)")
	fs.IntVar(&cf.S.Retries, "retries", llm.DefaultConfig.Retries, "`N` retries after a failed attempt (429, 5xx, timeout, network; a 200 reply is never bought twice)")
	fs.DurationVar(&cf.S.Timeout, "timeout", llm.DefaultConfig.Timeout, "time allowed for each attempt's reply to start (`duration`, e.g. 30s)")
	fs.DurationVar(&cf.S.Grace, "grace", llm.DefaultConfig.Grace, "extra time a reply that has started may take to finish (`duration`; 0: none)")
	fs.Int64Var(&cf.maxReplyMiB, "max-reply-mib", llm.DefaultConfig.MaxReplyBytes>>20, "largest reply body accepted, in `MiB`; a larger 200 reply fails its row and is not retried")
	fs.StringVar(&cf.S.Seed, "model-seed", "", "sampling seed `N` sent with every request (default: none)")
	fs.Var(&cf.headers, "header", "extra request header `NAME=env:VARIABLE`, its value read from the environment variable (e.g. api-key=env:AZURE_KEY for an Azure or gateway key; never shown or stored); repeatable")
	fs.BoolVar(&cf.S.RetryFailed, "retry-failed", false, "ask again for requests an earlier run recorded in the cache as failed with a paid 200 reply (malformed or too large); by default they fail at once, unpaid")
	return cf
}

// ModelClient is an opened client with its reply cache.
type ModelClient struct {
	Client    *llm.Client
	Cache     *llm.Cache
	CachePath string // "none" for a memory cache
	Cmd       string // the command, for messages
}

// Close closes the reply cache.
func (m *ModelClient) Close() error { return m.Cache.Close() }

// Where names the cache in messages: its file, or "memory".
func (m *ModelClient) Where() string {
	if m.CachePath == "none" {
		return "memory"
	}
	return m.CachePath
}

// Config checks the client flags for endpoint: a bad value is a usage
// error naming the flag.
func (cf *ClientFlags) Config(endpoint string) (llm.Config, error) {
	cf.S.BaseURL = endpoint
	if cf.maxReplyMiB <= 0 || cf.maxReplyMiB > 1<<20 {
		return llm.Config{}, Usagef("%s: --max-reply-mib must be between 1 and 1048576", cf.cmd)
	}
	cf.S.MaxReplyBytes = cf.maxReplyMiB << 20
	if cf.S.Grace < 0 {
		return llm.Config{}, Usagef("%s: --grace must not be negative (0: none)", cf.cmd)
	}
	cf.S.Headers = nil
	for _, h := range cf.headers {
		hd, err := llm.ParseHeader(h)
		if err != nil {
			return llm.Config{}, Usagef("%s: --header: %v", cf.cmd, err)
		}
		cf.S.Headers = append(cf.S.Headers, hd)
	}
	cfg, err := cf.S.Config()
	for _, u := range []struct {
		err error
		msg string
	}{
		{llm.ErrNoModel, "--model is required with an endpoint"},
		{llm.ErrConcurrency, "--concurrency must be at least 1"},
		{llm.ErrLimits, "--rpm and --retries must not be negative, --timeout must be positive"},
		{llm.ErrSeed, fmt.Sprintf("--model-seed must be an integer, not %q", cf.S.Seed)},
	} {
		if errors.Is(err, u.err) {
			return cfg, Usagef("%s: %s", cf.cmd, u.msg)
		}
	}
	if err != nil {
		return cfg, Usagef("%s: %v", cf.cmd, err)
	}
	return cfg, nil
}

// Open checks the client flags and opens the cache and the client for
// endpoint.
func (cf *ClientFlags) Open(e *Env, endpoint string) (*ModelClient, error) {
	cfg, err := cf.Config(endpoint)
	if err != nil {
		return nil, err
	}
	m := &ModelClient{Cmd: cf.cmd}
	if m.Cache, m.CachePath, err = llm.OpenCacheFile(cf.cache, cf.cacheName); err != nil {
		if errors.Is(err, llm.ErrNoCacheDir) {
			return nil, fmt.Errorf("%s: %v; pass --cache FILE or --cache none", cf.cmd, err)
		}
		return nil, err
	}
	for _, w := range m.Cache.Warnings() {
		fmt.Fprintln(e.Stderr, "evalbook: warning:", w)
	}
	cfg.Cache, cfg.MaxTokens = m.Cache, cf.MaxTokens
	var logMu sync.Mutex // the client logs from several goroutines
	cfg.Logf = func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(e.Stderr, "evalbook: "+cf.logAs+": "+format+"\n", args...)
	}
	if m.Client, err = llm.NewClient(cfg); err != nil {
		m.Cache.Close()
		return nil, Usagef("%s: %v", cf.cmd, err)
	}
	return m, nil
}

// Report prints the client's request counts on stderr: they change from
// run to run (a rerun is served from the cache), so they stay out of the
// Report itself.
func (m *ModelClient) Report(e *Env) {
	st := m.Client.Stats()
	fmt.Fprintf(e.Stderr, "evalbook: %d requests sent (%d retries), %d replies from the cache (%s)\n",
		st.Requests, st.Retries, st.CacheHits, m.Where())
	m.Notes(e)
	if n := m.Cache.Migrated(); n > 0 {
		fmt.Fprintf(e.Stderr, "evalbook: %s keyed by endpoint URL (an older evalbook's cache) written again keyed by model and request, for a rerun on any endpoint\n",
			Plural(n, "reply", "replies"))
	}
}

// Notes prints on stderr the calls that got a failure without a request
// of their own: twins of a failed request, and requests an earlier run
// recorded as failed (what --retry-failed changes).
func (m *ModelClient) Notes(e *Env) {
	st := m.Client.Stats()
	if st.Shared > 0 {
		fmt.Fprintf(e.Stderr, "evalbook: %s the failure of an identical request of this run (sent once, not bought again)\n",
			Plural(int(st.Shared), "call shares", "calls share"))
	}
	if st.Earlier > 0 {
		fmt.Fprintf(e.Stderr, "evalbook: %s recorded in the cache as failed by an earlier run (a paid 200 reply, malformed or too large) and not asked again; pass --retry-failed to pay for them again\n",
			Plural(int(st.Earlier), "call was", "calls were"))
	}
}

// Interrupted turns a cancelled run, or one stopped by a 401/403, into a
// message that says how to resume (or, with --cache none, that a rerun
// starts again).
func (m *ModelClient) Interrupted(err error) error {
	if errors.Is(err, llm.ErrAuth) {
		if m.CachePath == "none" {
			return fmt.Errorf("stopped: %v; with --cache none %s", err, keptInMemory(m.Cache.Len()))
		}
		return fmt.Errorf("stopped: %v; %s in the cache %s: fix the key and run the same command again to resume",
			err, Plural(m.Cache.Len(), "reply is", "replies are"), m.CachePath)
	}
	if !errors.Is(err, context.Canceled) {
		return err
	}
	if m.CachePath == "none" {
		return fmt.Errorf("interrupted; with --cache none %s, so running the command again starts from the beginning (pass --cache FILE to make a rerun resume)",
			keptInMemory(m.Cache.Len()))
	}
	return fmt.Errorf("interrupted; %s in the cache %s: run the same command again to resume", Plural(m.Cache.Len(), "reply is", "replies are"), m.CachePath)
}

// Rerun says what a rerun does after failed rows ("rows", "questions"):
// asks only for those (the cache has the rest), or, with --cache none,
// for everything; and that the requests the cache records as failed with
// a paid 200 reply are not asked again without --retry-failed.
func (m *ModelClient) Rerun(failed int, one, many string) string {
	if m.CachePath == "none" {
		return fmt.Sprintf("with --cache none %s, so running the command again asks for every %s (pass --cache FILE to make a rerun resume)", keptInMemory(m.Cache.Len()), one)
	}
	s := fmt.Sprintf("the other replies are cached in %s, so running the same command again asks only for the %s", m.CachePath, Plural(failed, "failed "+one, "failed "+many))
	if n := int(m.Client.Stats().Recorded); n > 0 && !m.Client.RetryFailed() {
		s += fmt.Sprintf(", except the %s whose paid 200 reply (malformed or too large) is recorded in the cache as failed: a rerun does not buy those again unless you pass --retry-failed",
			Plural(n, "call", "calls"))
	}
	return s
}

// keptInMemory says that n replies received with --cache none are lost:
// "the 1 reply received was kept in memory only and is lost", "the 3
// replies received were kept ... and are lost".
func keptInMemory(n int) string {
	if n == 1 {
		return "the 1 reply received was kept in memory only and is lost"
	}
	return fmt.Sprintf("the %d replies received were kept in memory only and are lost", n)
}

// BatchFlags are --batch and --batch-poll (task run, generate, judge).
type BatchFlags struct {
	On   *bool
	Poll *time.Duration
}

// AddBatchFlags declares --batch and --batch-poll.
func AddBatchFlags(fs *flag.FlagSet) BatchFlags {
	return BatchFlags{fs.Bool("batch", false, "submit the requests through the OpenAI Batch API first (upload, create, poll, download into the cache; a state file beside the cache lets a killed run resume the batch), then run"),
		fs.Duration("batch-poll", 30*time.Second, "wait between batch status checks (`duration`)")}
}

// Submit answers job through the Batch API into m's cache (with
// --batch; endpoints is how many --endpoint were given), so the online
// pass that follows finds every reply there.
func (b BatchFlags) Submit(e *Env, m *ModelClient, endpoints int, job llm.BatchJob) error {
	if !*b.On {
		return nil
	}
	if endpoints > 1 || m.CachePath == "none" {
		return Usagef("%s: --batch takes one --endpoint and a cache file (not --cache none): the batch's replies go into the cache, and its state file beside it lets a rerun resume the batch", m.Cmd)
	}
	state := m.CachePath + batchStateSuffix
	st, err := m.Client.Batch(e.Ctx, job, llm.BatchOptions{StatePath: state, Poll: *b.Poll,
		Logf: func(f string, a ...any) { fmt.Fprintf(e.Stderr, "evalbook %s: "+f+"\n", append([]any{m.Cmd}, a...)...) }})
	if err != nil {
		// Name the state file only when it holds a batch to resume.
		if n, serr := llm.PendingBatches(state); serr == nil && n > 0 {
			return fmt.Errorf("%s: batch: %w (%s pending in %s: run the same command again to resume them)", m.Cmd, err, Plural(n, "batch is", "batches are"), state)
		}
		return fmt.Errorf("%s: batch: %w (no batch is pending: nothing was submitted, or every batch submitted has been downloaded; "+
			"if the endpoint has no Batch API (POST /files and /batches), run without --batch to ask online)", m.Cmd, err)
	}
	fmt.Fprintf(e.Stderr, "evalbook %s: batch: %d requests cached before, %d submitted, %d batches resumed, %d replies received, %d answered with an error (asked online), %d with a malformed reply and %d recorded as failed before (not asked again)\n",
		m.Cmd, st.Cached, st.Submitted, st.Resumed, st.Received, st.Failed-st.Malformed, st.Malformed, st.Recorded)
	return nil
}

// Chats is submit for the chat requests of generate or judge (asked for
// only with --batch).
func (b BatchFlags) Chats(e *Env, m *ModelClient, reqs func() ([]llm.Request, error)) error {
	if !*b.On {
		return nil
	}
	r, err := reqs()
	if err != nil {
		return err
	}
	return b.Submit(e, m, 1, llm.BatchJob{Chats: r})
}

// Progress returns a callback drawing a progress bar on stderr when it is
// a terminal, and nil otherwise (pipes, files, tests), with a function
// that clears the bar.
func Progress(e *Env, total int, what string) (func(done, total int), func()) {
	f, ok := e.Stderr.(*os.File)
	if !ok || total < 2 || os.Getenv("TERM") == "dumb" {
		return nil, func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return func(done, _ int) { bar.Set(done) }, func() { bar.Finish() }
}
