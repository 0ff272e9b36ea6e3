package tasks

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// DetailsFormat names the details file's first record.
const DetailsFormat = "evalbook.task_details/1"

// Header is the first record of a details file: what was run, on which
// model, with which seed, and which shard of it this file holds.
type Header struct {
	Format   string `json:"format"`
	Model    string `json:"model"`
	Endpoint string `json:"endpoint"`
	Seed     int64  `json:"seed"`
	// Tasks are the task strings in the order given, with each task file's
	// hash and the number of items of the whole task (all shards).
	Tasks []HeaderTask `json:"tasks"`
	// Shard and Shards: this file holds the items whose index modulo
	// Shards is Shard (0 of 1 for a whole run).
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
	// PerChoice says each choice was scored by its own request (else one
	// request per item carried every choice as a prompt list); it changes
	// no figure, only the calls.
	PerChoice bool `json:"per_choice,omitempty"`
}

// HeaderTask is one task string of a run.
type HeaderTask struct {
	Spec     string `json:"spec"`
	Kind     string `json:"kind"`
	TaskHash string `json:"task_hash"`
	DataFile string `json:"data_file"`
	Items    int    `json:"items"`
	K        int    `json:"k,omitempty"`
	Samples  int    `json:"samples,omitempty"`
	// Metrics are the registry ids the task reports (the task file's
	// metrics as Parse resolved them). Details written before they were
	// recorded have none: Score then reports the kind's metrics under
	// the rules those runs used (see Score).
	Metrics []string `json:"metrics,omitempty"`
	// Stop, in a run with --stop-when, says where the task stopped; its
	// samples are then the prefix of the shuffled order it counted.
	Stop *Stop `json:"stop,omitempty"`
}

// Sample is one item's record: its prompt, the few-shot examples used,
// every continuation's log-probabilities or every response with its
// extracted answer, and the tokens from the replies' usage (null when a
// reply gave none: unknown, never 0).
type Sample struct {
	Task     string         `json:"task"` // the task string
	Index    int            `json:"index"`
	ID       string         `json:"id"`
	Fewshot  []string       `json:"fewshot_ids"`
	Prompt   string         `json:"prompt"`
	Choices  []string       `json:"choices,omitempty"`
	Gold     int            `json:"gold"`
	Golden   string         `json:"golden,omitempty"`
	Letters  []string       `json:"letters,omitempty"`
	Scored   []Continuation `json:"continuations,omitempty"`
	Response []Response     `json:"responses,omitempty"`
	// PromptTokens and CompletionTokens sum the item's replies' usage;
	// null when some reply gave none.
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
	Error            string `json:"error,omitempty"`
}

// Continuation is one choice of a log-likelihood item.
type Continuation struct {
	Text string `json:"text"` // the continuation scored: target prefix + choice
	// Chars is the choice's length in characters (code points), without
	// the target prefix: lm-eval's len(choice), the acc_norm divisor.
	Chars   int     `json:"chars"`
	Logprob float64 `json:"logprob"` // sum of the continuation tokens' log-probabilities
	// Tokens is the number of continuation tokens; TokenLogprobs each one's.
	Tokens        int       `json:"tokens"`
	TokenLogprobs []float64 `json:"token_logprobs"`
	// Straddle: the first continuation token began inside the context
	// (the tokenizer merged the boundary); its log-probability is counted.
	Straddle bool `json:"straddle,omitempty"`
}

// Response is one generated sample.
type Response struct {
	Text         string `json:"text"`
	FinishReason string `json:"finish_reason,omitempty"`
	// Extracted is the answer the task's regex took from Text (the whole
	// trimmed text with no regex); null when the regex did not match.
	Extracted *string `json:"extracted"`
}

// Details are a run's header and samples, in task order, then item order.
type Details struct {
	Header  Header
	Samples []Sample
}

// WriteDetails writes d as JSON Lines: the header, then one sample per line.
func WriteDetails(w io.Writer, d *Details) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d.Header); err != nil {
		return err
	}
	for i := range d.Samples {
		if err := enc.Encode(&d.Samples[i]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Check reports a header that is not a details file's (another format)
// or names an impossible shard.
func (h *Header) Check() error {
	if h.Format != DetailsFormat {
		return fmt.Errorf("not an evalbook task details file (format %q, want %q)", h.Format, DetailsFormat)
	}
	if h.Shards < 1 || h.Shard < 0 || h.Shard >= h.Shards {
		return fmt.Errorf("shard %d of %d", h.Shard, h.Shards)
	}
	return nil
}

// ReadDetails reads a details file. Errors are *tabular.ParseError. One
// line may be at most tabular.RecordLimit() bytes (64 MiB unless
// --max-field-mib or tabular.Limit changed it); a longer one is an error
// naming the file, the line, the limit and the flag.
func ReadDetails(r io.Reader, name string) (*Details, error) {
	ls := tabular.NewLines(r, name, 0)
	d := &Details{}
	first := true
	for ls.Scan() {
		dec := json.NewDecoder(strings.NewReader(string(ls.Bytes())))
		dec.DisallowUnknownFields()
		if first {
			if err := dec.Decode(&d.Header); err != nil {
				return nil, ls.Errorf(0, "details header: %v", err)
			}
			if err := d.Header.Check(); err != nil {
				return nil, ls.Errorf(0, "%v", err)
			}
			first = false
			continue
		}
		var s Sample
		if err := dec.Decode(&s); err != nil {
			return nil, ls.Errorf(0, "sample: %v", err)
		}
		d.Samples = append(d.Samples, s)
	}
	if err := ls.Err(); err != nil {
		return nil, err
	}
	if first {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("empty details file")}
	}
	return d, nil
}

// Merge joins the details of shards of one run: the same model, seed and
// tasks (task files by hash), every shard of the run once, no
// item twice (the shards may have used different endpoints; the merged
// header names each once, in the order given). The samples come back in task order, then item order, as
// one run over every shard would hold them, so Score gives the same
// figures bit for bit.
func Merge(parts []*Details) (*Details, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no details files")
	}
	h := parts[0].Header
	seen := make([]bool, h.Shards)
	var endpoints []string
	for i, p := range parts {
		ph := p.Header
		if !slices.Contains(endpoints, ph.Endpoint) {
			endpoints = append(endpoints, ph.Endpoint)
		}
		// Shards may run on different endpoints, one request or one per
		// choice: neither changes a figure.
		ph.Shard, h.Shard = 0, 0
		ph.Endpoint, h.Endpoint = "", ""
		ph.PerChoice, h.PerChoice = false, false
		if d := headerDiff(ph, h); d != "" {
			return nil, fmt.Errorf("merge: file %d is from another run than file 1: their headers differ in %s (file %d's value first); the shards of one run have the same model, seed, task strings, task files and shard count", i+1, d, i+1)
		}
		if seen[p.Header.Shard] {
			return nil, fmt.Errorf("merge: shard %d/%d is given twice", p.Header.Shard, h.Shards)
		}
		seen[p.Header.Shard] = true
	}
	var missing []string
	for i, ok := range seen {
		if !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, h.Shards))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge: shard(s) %s missing", strings.Join(missing, ", "))
	}
	order := map[string]int{}
	for i, t := range h.Tasks {
		order[t.Spec] = i
	}
	out := &Details{Header: parts[0].Header}
	out.Header.Shard, out.Header.Shards = 0, 1
	out.Header.Endpoint = strings.Join(endpoints, " ")
	for _, p := range parts {
		out.Samples = append(out.Samples, p.Samples...)
	}
	for _, s := range out.Samples {
		if _, ok := order[s.Task]; !ok {
			return nil, fmt.Errorf("merge: sample %q names task %q, which the header does not list", s.ID, s.Task)
		}
	}
	sort.SliceStable(out.Samples, func(i, j int) bool {
		a, b := out.Samples[i], out.Samples[j]
		if order[a.Task] != order[b.Task] {
			return order[a.Task] < order[b.Task]
		}
		return a.Index < b.Index
	})
	counts := make([]int, len(h.Tasks))
	for i, s := range out.Samples {
		if i > 0 && out.Samples[i-1].Task == s.Task && out.Samples[i-1].Index == s.Index {
			return nil, fmt.Errorf("merge: item %d (%s) of %s is in two files", s.Index, s.ID, s.Task)
		}
		counts[order[s.Task]]++
	}
	for i, t := range h.Tasks {
		want := t.Items
		if t.Stop != nil {
			want = t.Stop.Items // a run stopped by --stop-when (never sharded) keeps its prefix
		}
		if counts[i] != want {
			return nil, fmt.Errorf("merge: %s has %d of its %d items", t.Spec, counts[i], want)
		}
	}
	return out, nil
}

// shardOf reports whether item index belongs to shard i of n.
func shardOf(index, i, n int) bool { return index%n == i }
