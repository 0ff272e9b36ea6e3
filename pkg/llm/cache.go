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
// A Cache is safe for concurrent use.
type Cache struct {
	mu       sync.Mutex
	f        *os.File // nil for a memory-only cache
	path     string
	m        map[string]string
	warnings []string
}

// cacheEntry is one line of the cache file.
type cacheEntry struct {
	Key    string `json:"key"`
	Model  string `json:"model"`
	Prompt string `json:"prompt"`
	Reply  string `json:"reply"`
}

// NewMemoryCache returns a cache that lives only as long as the process.
func NewMemoryCache() *Cache { return &Cache{m: map[string]string{}} }

// OpenCache opens (creating it if needed) the cache file at path and loads
// its entries. A last line without its newline (a write cut short by a
// kill) is removed from the file and reported in Warnings; so is any other
// line that is not a valid entry, which is skipped. A later entry for the
// same key replaces an earlier one.
func OpenCache(path string) (*Cache, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	c := &Cache{f: f, path: path, m: map[string]string{}}
	keep, err := c.load(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(keep); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: removing torn last line: %w", path, err)
	}
	return c, nil
}

// load reads every entry and returns the length of the file up to the end
// of its last complete line.
func (c *Cache) load(f *os.File) (int64, error) {
	r := bufio.NewReaderSize(f, 64<<10)
	var off int64
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
			case json.Unmarshal(body, &e) != nil || e.Key == "":
				c.warnings = append(c.warnings, fmt.Sprintf("%s:%d: not a cache entry, skipped", c.path, line))
			default:
				c.m[e.Key] = e.Reply
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
	line, err := json.Marshal(cacheEntry{Key: key, Model: model, Prompt: promptHash, Reply: reply})
	if err != nil {
		return err
	}
	line = append(line, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f != nil {
		if _, err := c.f.Write(line); err != nil {
			return fmt.Errorf("cache %s: %w", c.path, err)
		}
	}
	c.m[key] = reply
	return nil
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

// CacheKey returns the key of a chat request: SHA-256, in hex, over the
// endpoint, the model, the prompt hash, the rendered messages and the
// sampling parameters, so that changing any of them makes a new request.
// The API key is not part of it. (Prompt requests have keys of their own
// form, so the two APIs can share one cache.)
func CacheKey(endpoint, model, promptHash, system, user string, p Params) string {
	b, _ := json.Marshal(struct {
		Endpoint string `json:"endpoint"`
		Model    string `json:"model"`
		Prompt   string `json:"prompt"`
		System   string `json:"system"`
		User     string `json:"user"`
		Params   Params `json:"params"`
	}{strings.TrimRight(endpoint, "/"), model, promptHash, system, user, p})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
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
