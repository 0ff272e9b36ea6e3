package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	register(&command{name: "generate", summary: "ask an OpenAI-compatible endpoint for a response to every question of a dataset", run: runGenerate})
}

const generateHelp = `
Usage: evalbook generate --dataset FILE --endpoint URL --model NAME --out FILE
                         [--language L] [--prompts FILE] [--cache FILE|none] [--limit N]

Asks a model behind an OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp server,
Ollama, a hosted API) for a response to every question of a dataset, and writes a response
table that evalbook score and evalbook leaderboard read:

	id,question,answer,Domain,language,model,response

The dataset (CSV, JSONL, or an .xlsx workbook whose first sheet has a header row; UTF-8)
needs a question column; id, answer (the golden answer), Domain
and language are copied when present. Each question is sent with the prompt template of
its language: --language, else the dataset's language column, else a <name>_<language>
file name, else the script of the question (Devanagari is taken as Hindi); the templates
are data (--prompts FILE, default datasets/leaderboard/generate_prompts.json), one per
language plus "default", each a system message and a user message with {question}.

Requests go out at temperature 0, --concurrency at a time, with retries and backoff on 429,
5xx and network errors. Every reply is kept in an append-only cache (--cache), keyed by the
endpoint, model, template hash and message: an interrupted or failed run resumes where it
stopped and never pays twice for a question (with --cache none replies live only as long as
the run, so a rerun asks again). The API key is read from the environment
variable named by --api-key-env and never written anywhere. If any question fails after
its retries, no output is written and the command exits 1; run it again to resume.

Name the output <model>_<language>.csv and collect such files in one directory to build a
leaderboard.

Examples:
	evalbook generate --dataset questions_hindi.csv --endpoint http://127.0.0.1:8000/v1 \
	    --model kestrel-7b --out runs/kestrel-7b_hindi.csv
	evalbook generate --dataset qs.jsonl --endpoint https://api.example.com/v1 --model m \
	    --language bengali --concurrency 8 --rpm 120 --out runs/m_bengali.csv
`

// genTemplates is the prompt file: one template per language.
type genTemplates struct {
	Version   string                 `json:"version"`
	Note      string                 `json:"note,omitempty"`
	Templates map[string]genTemplate `json:"templates"`
}

type genTemplate struct {
	System string `json:"system"`
	User   string `json:"user"`
}

// hash is the first 12 hex digits of SHA-256 over the version and the
// template: any change to a word is a new prompt (and a new cache key).
func (t genTemplate) hash(version string) string {
	h := sha256.Sum256([]byte(version + "\x00" + t.System + "\x00" + t.User))
	return hex.EncodeToString(h[:])[:12]
}

// genQuestion is one row of the dataset.
type genQuestion struct {
	line                         int
	id, question, answer, domain string
	language                     string
}

func runGenerate(e *env) error {
	fs := newFlags(e, "generate", generateHelp)
	var (
		dataset     = fs.String("dataset", "", "question `FILE` (.csv, .jsonl or .xlsx) with a question column")
		endpoint    = fs.String("endpoint", "", "OpenAI-compatible base `URL`, e.g. http://127.0.0.1:8000/v1")
		model       = fs.String("model", "", "model `NAME` as the endpoint knows it")
		out         = fs.String("out", "", "response table `FILE` to write (CSV)")
		language    = fs.String("language", "", "language of every question (`name` or code); default: per row")
		prompts     = fs.String("prompts", "", "prompt template `FILE` (JSON); default the built-in datasets/leaderboard/generate_prompts.json")
		cache       = fs.String("cache", "", "reply cache `FILE` (JSON Lines, append-only); default evalbook/generate-cache.jsonl in the user cache directory; none: memory only")
		apiKeyEnv   = fs.String("api-key-env", llm.DefaultConfig.APIKeyEnv, "environment `variable` holding the API key (unset: no key sent)")
		concurrency = fs.Int("concurrency", 4, "`N` requests in flight at once")
		rpm         = fs.Int("rpm", 0, "at most `N` requests per minute (0: no limit)")
		retries     = fs.Int("retries", llm.DefaultConfig.Retries, "`N` retries after a failed attempt")
		timeout     = fs.Duration("timeout", llm.DefaultConfig.Timeout, "time allowed for each attempt (`duration`)")
		maxTokens   = fs.Int("max-tokens", 256, "`N` tokens at most per response (0: the endpoint's default)")
		modelSeed   = fs.String("model-seed", "", "sampling seed `N` sent with every request (default: none)")
		limit       = fs.Int("limit", 0, "ask only the first `N` questions (0: all)")
	)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("generate: unexpected argument %q", args[0])
	}
	for _, f := range []struct{ name, val string }{{"--dataset", *dataset}, {"--endpoint", *endpoint}, {"--model", *model}, {"--out", *out}} {
		if f.val == "" {
			return usagef("generate: %s is required (see evalbook generate --help)", f.name)
		}
	}
	if err := refuseDir(*out); err != nil {
		return usagef("generate: --out: %v", err)
	}
	if *concurrency < 1 || *rpm < 0 || *retries < 0 || *timeout <= 0 || *maxTokens < 0 || *limit < 0 {
		return usagef("generate: --concurrency must be at least 1; --rpm, --retries, --max-tokens and --limit must not be negative; --timeout must be positive")
	}
	var seed *int64
	if *modelSeed != "" {
		s, err := strconv.ParseInt(*modelSeed, 10, 64)
		if err != nil {
			return usagef("generate: --model-seed must be an integer, not %q", *modelSeed)
		}
		seed = &s
	}
	fixedLang := ""
	if *language != "" {
		l, ok := textnorm.ParseLanguage(*language)
		if !ok {
			return usagef("generate: unknown --language %q", *language)
		}
		fixedLang = l
	}
	tpl, err := genLoadTemplates(*prompts)
	if err != nil {
		return err
	}
	qs, err := genReadDataset(*dataset, fixedLang)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(qs) {
		qs = qs[:*limit]
	}
	unknown := 0
	for _, q := range qs {
		if _, ok := tpl.Templates[q.language]; !ok {
			unknown++
		}
	}
	if unknown == 1 {
		fmt.Fprintf(e.stderr, "evalbook generate: 1 question has no template for its language; it gets the \"default\" template\n")
	} else if unknown > 0 {
		fmt.Fprintf(e.stderr, "evalbook generate: %d questions have no template for their language; they get the \"default\" template\n", unknown)
	}

	// Open the cache and pkg/llm's client (retries, limits, cache).
	var c *llm.Cache
	cachePath := *cache
	switch cachePath {
	case "none":
		c = llm.NewMemoryCache()
	case "":
		dir, derr := os.UserCacheDir()
		if derr != nil {
			return fmt.Errorf("generate: no user cache directory (%v); pass --cache FILE or --cache none", derr)
		}
		cachePath = filepath.Join(dir, "evalbook", "generate-cache.jsonl")
		if err := os.MkdirAll(filepath.Dir(cachePath), 0o755); err != nil {
			return err
		}
		fallthrough
	default:
		if c, err = llm.OpenCache(cachePath); err != nil {
			return err
		}
		for _, w := range c.Warnings() {
			fmt.Fprintln(e.stderr, "evalbook: warning:", w)
		}
	}
	defer c.Close()
	r := *retries
	if r == 0 {
		r = -1 // llm.Config: negative means no retries, zero the default
	}
	client, err := llm.NewClient(llm.Config{
		BaseURL: *endpoint, Model: *model, APIKeyEnv: *apiKeyEnv, Seed: seed, MaxTokens: *maxTokens,
		Timeout: *timeout, Retries: r, Concurrency: *concurrency, RPM: *rpm, Cache: c,
		Logf: func(format string, a ...any) { fmt.Fprintf(e.stderr, "evalbook: generate: "+format+"\n", a...) },
	})
	if err != nil {
		return usagef("generate: %v", err)
	}

	responses, failed, err := genAsk(e, client, tpl, qs, *concurrency)
	st := client.Stats()
	where := cachePath
	if where == "none" {
		where = "memory"
	}
	fmt.Fprintf(e.stderr, "evalbook: %d requests sent (%d retries), %d replies from the cache (%s)\n", st.Requests, st.Retries, st.CacheHits, where)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			return err
		}
		if cachePath == "none" {
			return fmt.Errorf("generate: interrupted; with --cache none %s, so running the command again starts from the beginning (pass --cache FILE to make a rerun resume)",
				keptInMemory(c.Len()))
		}
		return fmt.Errorf("generate: interrupted; %s in the cache %s: run the same command again to resume", nounCount(c.Len(), "reply is", "replies are"), where)
	}
	if len(failed) > 0 {
		got := nounCount(len(qs)-len(failed), "reply", "replies")
		rerun := fmt.Sprintf("the %s received are cached in %s, so running the same command again asks only for the rest", got, where)
		if len(qs)-len(failed) == 1 {
			rerun = fmt.Sprintf("the 1 reply received is cached in %s, so running the same command again asks only for the rest", where)
		}
		if cachePath == "none" {
			rerun = fmt.Sprintf("with --cache none %s, so running the command again asks for every question (pass --cache FILE to make a rerun resume)", keptInMemory(len(qs)-len(failed)))
		}
		return fmt.Errorf("generate: %d of %s failed (first: %s); nothing was written; %s",
			len(failed), nounCount(len(qs), "question", "questions"), failed[0], rerun)
	}
	if err := genWrite(*out, qs, responses, *model); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s from %s to %s\n", nounCount(len(qs), "response", "responses"), *model, *out)
	return nil
}

// genAsk sends every question and returns the replies in dataset order,
// with a description of each failed question.
func genAsk(e *env, client *llm.Client, tpl *genTemplates, qs []genQuestion, workers int) ([]string, []string, error) {
	responses := make([]string, len(qs))
	errs := make([]error, len(qs))
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, last := 0, time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				q := qs[i]
				t, ok := tpl.Templates[q.language]
				if !ok {
					t = tpl.Templates["default"]
				}
				reply, err := client.Complete(ctx, llm.Request{
					PromptHash: t.hash(tpl.Version),
					System:     t.System,
					User:       strings.ReplaceAll(t.User, "{question}", q.question),
				})
				responses[i], errs[i] = strings.TrimSpace(reply), err
				mu.Lock()
				done++
				if time.Since(last) > 2*time.Second || done == len(qs) {
					fmt.Fprintf(e.stderr, "evalbook generate: %d/%d\n", done, len(qs))
					last = time.Now()
				}
				mu.Unlock()
			}
		}()
	}
	for i := range qs {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if err := e.ctx.Err(); err != nil {
		return nil, nil, err
	}
	var failed []string
	for i, err := range errs {
		if err != nil {
			failed = append(failed, fmt.Sprintf("line %d: %v", qs[i].line, err))
		}
	}
	return responses, failed, nil
}

// genLoadTemplates reads the prompt file, or the built-in one.
func genLoadTemplates(path string) (*genTemplates, error) {
	var data []byte
	var err error
	name := path
	if path == "" {
		name = "datasets/" + datasets.GeneratePromptsName
		data, err = datasets.Leaderboard.ReadFile(datasets.GeneratePromptsName)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t genTemplates
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if _, ok := t.Templates["default"]; !ok {
		return nil, fmt.Errorf("%s: no \"default\" template", name)
	}
	keys := make([]string, 0, len(t.Templates))
	for k := range t.Templates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	norm := map[string]genTemplate{}
	for _, k := range keys {
		v := t.Templates[k]
		if !strings.Contains(v.User, "{question}") {
			return nil, fmt.Errorf("%s: template %q has no {question} in its user message", name, k)
		}
		if k != "default" {
			l, ok := textnorm.ParseLanguage(k)
			if !ok {
				return nil, fmt.Errorf("%s: template %q is not a language evalbook knows", name, k)
			}
			k = l
		}
		norm[k] = v
	}
	t.Templates = norm
	return &t, nil
}

// genReadDataset reads the questions of a CSV, JSONL or workbook file
// and settles each one's language.
func genReadDataset(path, fixedLang string) ([]genQuestion, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	_, fileLang, _ := textnorm.LanguageFromFileName(path)
	var rows []map[string]string
	var lines []int
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		rows, lines, err = genReadJSONL(data, path)
	case ".csv", ".txt", "":
		rows, lines, err = genReadCSV(data, path)
	default:
		rows, lines, err = genReadOther(data, path)
	}
	if err != nil {
		return nil, err
	}
	var qs []genQuestion
	for i, row := range rows {
		q, ok := row["question"]
		if !ok {
			return nil, fmt.Errorf("%s:%d: no \"question\" field", path, lines[i])
		}
		if strings.TrimSpace(q) == "" {
			return nil, fmt.Errorf("%s:%d: empty question", path, lines[i])
		}
		g := genQuestion{line: lines[i], id: row["id"], question: q, answer: row["answer"], domain: row["Domain"]}
		switch {
		case fixedLang != "":
			g.language = fixedLang
		case strings.TrimSpace(row["language"]) != "":
			g.language = strings.ToLower(strings.TrimSpace(row["language"]))
			if l, ok := textnorm.ParseLanguage(g.language); ok {
				g.language = l
			}
		case fileLang != "":
			g.language = fileLang
		default:
			g.language, _ = textnorm.LanguageOfScript(textnorm.ScriptOf(q))
		}
		qs = append(qs, g)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no questions: the file has a header but no rows", path)
	}
	return qs, nil
}

// genReadJSONL reads one object per line, checking the raw bytes first:
// encoding/json would turn invalid UTF-8 into U+FFFD, and the replacement
// would reach the model and the response table.
func genReadJSONL(data []byte, path string) ([]map[string]string, []int, error) {
	if err := rawUTF8JSONL(data, path); err != nil {
		return nil, nil, err
	}
	var rows []map[string]string
	var lines []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		}
		if len(b) == 0 {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(b, &obj); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: not a JSON object: %v", path, n, err)
		}
		row := map[string]string{}
		for k, v := range obj {
			switch x := v.(type) {
			case string:
				row[k] = x
			case nil:
			default:
				enc, _ := json.Marshal(x)
				row[k] = string(enc)
			}
		}
		rows, lines = append(rows, row), append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no questions: want one JSON object per line with a \"question\" field", path)
	}
	return rows, lines, nil
}

// genReadCSV reads a CSV file with a header row. encoding/csv passes
// bytes through unchecked, so every field is checked for UTF-8.
func genReadCSV(data []byte, path string) ([]map[string]string, []int, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	place := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d:%d: %v", path, pe.Line, pe.Column, pe.Err)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	hdr, err := r.Read()
	if err == io.EOF {
		return nil, nil, fmt.Errorf("%s: empty file: want a header row naming a question column (and optionally id, answer, Domain, language)", path)
	}
	if err != nil {
		return nil, nil, place(err)
	}
	hdr = append([]string(nil), hdr...)
	hdrLine, _ := r.FieldPos(0)
	for i, h := range hdr {
		l, c := r.FieldPos(i)
		if err := rawUTF8Field(path, l, c, "", h); err != nil {
			return nil, nil, err
		}
	}
	if !slices.Contains(hdr, "question") {
		return nil, nil, fmt.Errorf("%s:%d: no \"question\" column (the header has %s)", path, hdrLine, strings.Join(hdr, ", "))
	}
	var rows []map[string]string
	var lines []int
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, place(err)
		}
		line, _ := r.FieldPos(0)
		row := map[string]string{}
		for i, h := range hdr {
			l, c := r.FieldPos(i)
			if err := rawUTF8Field(path, l, c, h, rec[i]); err != nil {
				return nil, nil, err
			}
			row[h] = rec[i]
		}
		rows, lines = append(rows, row), append(lines, line)
	}
	return rows, lines, nil
}

// genReadOther reads the formats registered with pkg/qa (an .xlsx
// workbook: its first sheet, rows numbered as in Excel). Any other
// extension is refused by name rather than parsed as CSV.
func genReadOther(data []byte, path string) ([]map[string]string, []int, error) {
	src, err := qa.Open(bytes.NewReader(data), path, "")
	if err != nil {
		return nil, nil, fmt.Errorf("%w; generate reads .csv, .jsonl and .xlsx files", err)
	}
	hdr, err := src.Header()
	if err != nil {
		return nil, nil, err
	}
	if !slices.Contains(hdr, "question") {
		return nil, nil, fmt.Errorf("%s: header row: no \"question\" column (the header has %s)", path, strings.Join(hdr, ", "))
	}
	var rows []map[string]string
	var lines []int
	for {
		rec, line, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		row := map[string]string{}
		for i, h := range hdr {
			if i < len(rec) {
				row[h] = rec[i]
			}
		}
		rows, lines = append(rows, row), append(lines, line)
	}
	return rows, lines, nil
}

// genWrite writes the response table through createAtomic (a temporary
// file beside the target, renamed into place once complete).
func genWrite(path string, qs []genQuestion, responses []string, model string) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"id", "question", "answer", "Domain", "language", "model", "response"})
	for i, q := range qs {
		id := q.id
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		w.Write([]string{id, q.question, q.answer, q.domain, q.language, model, responses[i]})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	out, commit, abort, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer abort()
	if _, err := out.Write(b.Bytes()); err != nil {
		return err
	}
	return commit()
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
