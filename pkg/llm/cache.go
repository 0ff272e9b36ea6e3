package llm

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// A Cache keeps replies by request key, so that a rerun makes no repeated
// call and a killed run resumes where it stopped. On disk it is
// an append-only JSON Lines file, one entry per completed request, each
// written with a single write call; a process killed mid-write can only
// leave a torn last line, which OpenCache drops with a warning. The cache
// holds replies, model names and prompt hashes; never an API key.
//
// A Cache also settles each request once for the clients that share it:
// identical requests in flight at once are sent once (single flight). A
// failure that a retry would most likely buy again (a 200 reply that was
// malformed or over the size limit: paid for, and at temperature 0 the
// same next time) is recorded in it, and written to the file as a
// failure entry, so that neither a twin nor a rerun buys it again (unless
// Config.RetryFailed asks a rerun to); other failures (5xx after the
// retries, timeouts, a reply cut short) are shared by the twins asked of
// the same Client only, and a new Client (a rerun) asks for them again.
//
// A Cache is safe for concurrent use.
type Cache struct {
	mu       sync.Mutex
	f        *os.File // nil for a memory-only cache
	path     string
	m        map[string]string
	warnings []string
	// old says whether the file holds entries keyed the first way (by
	// endpoint URL); when it does not, no old key is ever looked up.
	// stale counts those not re-keyed yet, for the warning.
	old   bool
	stale int
	// endpoints are the base URLs of the clients using the cache, with
	// which the old key of a request is formed.
	endpoints []string
	migrated  int

	// failures are the requests recorded as failed, by key: loaded from
	// the file's failure entries (earlier runs), or failed in this process.
	failures map[string]*failure
	flights  map[string]*flight // requests in flight, by key
}

// A Failure is a request's failure as the cache file records it: a 200
// reply that was malformed or over the size limit, paid for and not
// usable.
type Failure struct {
	Kind   string `json:"kind"`   // CallError.Kind: "malformed", "too_large"
	Status int    `json:"status"` // the HTTP status (200)
	Error  string `json:"error"`  // the error's text (no key, no secret)
}

// failure is a request that failed: its error, shared by the twins of
// this process (nil when read from the file), its record (nil for a
// failure a Client keeps for its twins only), and whether it is an
// earlier run's.
type failure struct {
	err     error
	rec     *Failure
	earlier bool
}

// flight is a request being asked: its twins wait for done.
type flight struct {
	done  chan struct{}
	reply string
	err   error
}

// failureKeyPrefix starts the key of a failure entry: the request's key
// after it. A reply entry's key is never changed by it (an evalbook that
// predates failure entries reads one as a reply to a request never
// asked, and ignores it).
const failureKeyPrefix = "failed:"

// KeyFormat is the format of the keys a Cache writes, recorded in each
// entry as key_format: 2, keyed by what was asked (the API, the model,
// the prompt hash, the messages or prompts and every parameter; see
// CacheKey). An entry without key_format has a key of format 1, which
// also hashed the endpoint's URL (evalbook before issue 26).
const KeyFormat = 2

// cacheEntry is one line of the cache file. OldKeys, on an entry of the
// current format, are the format-1 keys it was found under (the entry was
// re-keyed, see Cache.Migrated).
type cacheEntry struct {
	Key       string   `json:"key"`
	KeyFormat int      `json:"key_format,omitempty"`
	OldKeys   []string `json:"old_keys,omitempty"`
	Model     string   `json:"model"`
	Prompt    string   `json:"prompt"`
	Reply     string   `json:"reply"`
	// Failure, on an entry whose key is "failed:" and a request's key,
	// records that the request failed with a paid 200 reply.
	Failure *Failure `json:"failure,omitempty"`
}

// NewMemoryCache returns a cache that lives only as long as the process.
func NewMemoryCache() *Cache {
	return &Cache{m: map[string]string{}, failures: map[string]*failure{}, flights: map[string]*flight{}}
}

// OpenCache opens (creating it if needed) the cache file at path and loads
// its entries. A last line without its newline (a write cut short by a
// kill) is removed from the file and reported in Warnings; so is any other
// line that is not a valid entry, which is skipped. A later entry for the
// same key replaces an earlier one.
//
// Entries of key format 1 (keyed by endpoint URL, written before issue 26)
// are loaded too: a client finds one when it asks the request of that
// entry from one of the endpoints the cache's clients use (the URL it was
// first asked of), and writes it again under its new key, recording the
// old one, so that from then on the URL no longer matters. Warnings says
// how many such entries have not been re-keyed: a request whose endpoint
// has moved since cannot be matched with its old entry and is asked again.
func OpenCache(path string) (*Cache, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	c := NewMemoryCache()
	c.f, c.path = f, path
	keep, err := c.load(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(keep); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: removing torn last line: %w", path, err)
	}
	if c.stale > 0 {
		c.warnings = append(c.warnings, fmt.Sprintf("%s: %s keyed by endpoint URL, as evalbook wrote them before keying replies by model and request: "+
			"each is used when its request goes to the URL it was first sent to, and is then re-keyed so the URL no longer matters; "+
			"a request whose endpoint has moved since is asked again (run once with the old --endpoint list to re-key them all)",
			path, nounCount(c.stale, "reply is", "replies are")))
	}
	return c, nil
}

// load reads every entry and returns the length of the file up to the end
// of its last complete line.
func (c *Cache) load(f *os.File) (int64, error) {
	r := bufio.NewReaderSize(f, 64<<10)
	var off int64
	old := map[string]bool{}     // keys of format 1
	rekeyed := map[string]bool{} // format-1 keys written again under a new key
	defer func() {
		c.old = len(old) > 0
		for k := range old {
			if !rekeyed[k] {
				c.stale++
			}
		}
	}()
	for line := 1; ; line++ {
		raw, err := readLine(r, MaxCacheLine)
		if errors.Is(err, errLongLine) {
			return 0, fmt.Errorf("%s:%d: a line longer than %s, more than any cache entry holds (llm.MaxCacheLine): is this an evalbook cache file?", c.path, line, sizeOf(MaxCacheLine))
		}
		if len(raw) > 0 && raw[len(raw)-1] != '\n' {
			// No newline: the last write was cut short.
			c.warnings = append(c.warnings, fmt.Sprintf("%s:%d: torn last line (%d bytes) skipped and removed; its request will be made again", c.path, line, len(raw)))
			return off, nil
		}
		if len(raw) > 0 {
			off += int64(len(raw))
			var e cacheEntry
			body := bytes.TrimSpace(raw)
			switch {
			case len(body) == 0:
			case json.Unmarshal(body, &e) != nil || e.Key == "" || (e.Failure != nil) != strings.HasPrefix(e.Key, failureKeyPrefix):
				c.warnings = append(c.warnings, fmt.Sprintf("%s:%d: not a cache entry, skipped", c.path, line))
			case e.Failure != nil:
				c.failures[strings.TrimPrefix(e.Key, failureKeyPrefix)] = &failure{rec: e.Failure, earlier: true}
			default:
				c.m[e.Key] = e.Reply
				switch {
				case e.KeyFormat == 0:
					old[e.Key] = true
				default:
					for _, k := range e.OldKeys {
						rekeyed[k] = true
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return off, nil
		}
		if err != nil {
			return 0, fmt.Errorf("%s:%d: %w", c.path, line, err)
		}
	}
}

// Get returns the cached reply for key.
func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[key]
	return r, ok
}

// Put stores a reply and, for a file cache, appends it to the file in one
// write.
func (c *Cache) Put(key, model, promptHash, reply string) error {
	line, err := json.Marshal(cacheEntry{Key: key, KeyFormat: KeyFormat, Model: model, Prompt: promptHash, Reply: reply})
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write(key, reply, line)
}

// write appends line (the entry of key) to the file and keeps reply in
// memory; c.mu is held.
func (c *Cache) write(key, reply string, line []byte) error {
	line = append(line, '\n')
	// Kept in memory first: a reply the file could not take still serves
	// this process's twins (it was paid for).
	c.m[key] = reply
	delete(c.failures, key)
	if c.f != nil {
		if _, err := c.f.Write(line); err != nil {
			return fmt.Errorf("cache %s: %w", c.path, err)
		}
	}
	return nil
}

// PutFailure records that a request failed with a paid 200 reply (see
// Failure): its twins in this process and, for a file cache, later runs
// find the failure instead of buying the reply again.
func (c *Cache) PutFailure(key, model, promptHash string, f Failure) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.putFailure(key, model, promptHash, &f, nil)
}

// putFailure writes a failure entry; c.mu is held. err, when set, is the
// error the request's twins in this process share.
func (c *Cache) putFailure(key, model, promptHash string, f *Failure, err error) error {
	c.failures[key] = &failure{err: err, rec: f}
	if c.f == nil {
		return nil
	}
	line, jerr := json.Marshal(cacheEntry{Key: failureKeyPrefix + key, KeyFormat: KeyFormat, Model: model, Prompt: promptHash, Failure: f})
	if jerr != nil {
		return jerr
	}
	if _, werr := c.f.Write(append(line, '\n')); werr != nil {
		return fmt.Errorf("cache %s: %w", c.path, werr)
	}
	return nil
}

// settle looks key up for a call: its reply, or its failure (one of an
// earlier run only when !retryEarlier; then the calling client's own,
// ownFailure), or the flight of an identical request in flight (leader
// false), or, when there is none of these, a new flight that the caller
// leads (leader true) and must end with land.
func (c *Cache) settle(key string, retryEarlier bool, ownFailure func(string) error) (reply string, ok bool, fl *failure, f *flight, leader bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[key]; ok {
		return r, true, nil, nil, false
	}
	if fl := c.failures[key]; fl != nil && !(fl.earlier && retryEarlier) {
		return "", false, fl, nil, false
	}
	if err := ownFailure(key); err != nil {
		return "", false, &failure{err: err}, nil, false
	}
	if f := c.flights[key]; f != nil {
		return "", false, nil, f, false
	}
	f = &flight{done: make(chan struct{})}
	c.flights[key] = f
	return "", false, nil, f, true
}

// peek is settle without starting a flight: the reply, the failure (of
// any run) or the flight of key.
func (c *Cache) peek(key string) (reply string, ok bool, fl *failure, f *flight) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[key]; ok {
		return r, true, nil, nil
	}
	return "", false, c.failures[key], c.flights[key]
}

// land ends the flight of key: a reply is cached (file first); a failure
// with a record (rec) is recorded, and written to the file; any other
// failure leaves nothing here (the client keeps it for its twins, and a
// cancelled call leaves nothing at all, so a twin asks again). The twins
// waiting on f are then released. The error is the file's.
func (c *Cache) land(key string, f *flight, model, promptHash string, rec *Failure) error {
	c.mu.Lock()
	defer func() {
		delete(c.flights, key)
		c.mu.Unlock()
		close(f.done)
	}()
	switch {
	case f.err == nil:
		line, err := json.Marshal(cacheEntry{Key: key, KeyFormat: KeyFormat, Model: model, Prompt: promptHash, Reply: f.reply})
		if err != nil {
			return err
		}
		return c.write(key, f.reply, line)
	case rec != nil:
		return c.putFailure(key, model, promptHash, rec, f.err)
	}
	return nil
}

// Failures returns the number of requests recorded in the cache as
// failed with a paid 200 reply (by earlier runs or this one).
func (c *Cache) Failures() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, fl := range c.failures {
		if fl.rec != nil {
			n++
		}
	}
	return n
}

// addEndpoint records the base URL of a client using the cache: the old
// keys of its requests are formed with it (see OpenCache).
func (c *Cache) addEndpoint(endpoint string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.endpoints {
		if e == endpoint {
			return
		}
	}
	c.endpoints = append(c.endpoints, endpoint)
}

// rekey looks a request up by its format-1 keys (oldKey of each endpoint
// of the cache's clients) and, when one holds a reply, writes that reply
// under key, recording the old keys that held it, and returns it.
func (c *Cache) rekey(key string, oldKey func(endpoint string) string, model, promptHash string) (string, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.old || oldKey == nil {
		return "", false, nil
	}
	if r, ok := c.m[key]; ok { // re-keyed by another caller meanwhile
		return r, true, nil
	}
	var (
		found []string
		reply string
	)
	for _, ep := range c.endpoints {
		k := oldKey(ep)
		if r, ok := c.m[k]; ok {
			if found == nil {
				reply = r
			}
			found = append(found, k)
		}
	}
	if found == nil {
		return "", false, nil
	}
	line, err := json.Marshal(cacheEntry{Key: key, KeyFormat: KeyFormat, OldKeys: found, Model: model, Prompt: promptHash, Reply: reply})
	if err == nil {
		err = c.write(key, reply, line)
	}
	if err != nil {
		return "", false, err
	}
	c.migrated++
	return reply, true, nil
}

// Migrated returns the number of replies found under a key of format 1
// (by endpoint URL) and written again under their key of the current
// format since the cache was opened.
func (c *Cache) Migrated() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.migrated
}

// Len returns the number of cached replies.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Warnings returns what OpenCache skipped, one sentence each.
func (c *Cache) Warnings() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.warnings...)
}

// Close flushes the file to disk and closes it.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Sync()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	return err
}

// CacheKey returns the key of a chat request (Complete's): SHA-256, in
// hex, over what was asked — the API path, the model, the prompt hash, the
// rendered messages and the sampling parameters — so that changing any of
// them makes a new request, and nothing else does. The endpoint's URL is
// not part of it: the same request asked of a server moved to another
// port, or of another server in an --endpoint list, finds the reply
// cached. A model name is taken to name one model, whichever server
// serves it; two servers that serve different weights under one name need
// different names or caches. The API key is not part of the key either.
// (Prompt and sample requests have keys of their own form, so the APIs
// can share one cache.)
func CacheKey(model, promptHash, system, user string, p Params) string {
	return hashKey(struct {
		Format int    `json:"key_format"`
		API    string `json:"api"`
		Path   string `json:"path"`
		Model  string `json:"model"`
		Prompt string `json:"prompt_hash"`
		System string `json:"system"`
		User   string `json:"user"`
		Params Params `json:"params"`
	}{KeyFormat, "chat", "/chat/completions", model, promptHash, system, user, p})
}

// hashKey is SHA-256, in hex, over v in JSON.
func hashKey(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// oldChatKey is a chat request's key of format 1, which hashed the
// endpoint too (evalbook before issue 26); a cache file may hold such keys.
func oldChatKey(endpoint, model, promptHash, system, user string, p Params) string {
	return hashKey(struct {
		Endpoint string `json:"endpoint"`
		Model    string `json:"model"`
		Prompt   string `json:"prompt"`
		System   string `json:"system"`
		User     string `json:"user"`
		Params   Params `json:"params"`
	}{strings.TrimRight(endpoint, "/"), model, promptHash, system, user, p})
}

// Params are the sampling parameters sent with every chat request.
type Params struct {
	Temperature float64 `json:"temperature"`
	Seed        *int64  `json:"seed,omitempty"`
	MaxTokens   int     `json:"max_tokens,omitempty"`
}

// MaxCacheLine bounds one line of a cache file when it is loaded: 1 GiB,
// beyond any entry (a prompt and a reply of at most Config.MaxReplyBytes),
// so that a file that is not a cache cannot exhaust memory.
var MaxCacheLine = 1 << 30

var errLongLine = errors.New("line too long")

// readLine is bufio.Reader.ReadBytes('\n') that gives up with errLongLine
// once the line is longer than max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > max {
			return nil, errLongLine
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// sizeOf writes n bytes in MiB when it is a whole number of them.
func sizeOf(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
