package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// ReadDataset reads an answer-or-abstain dataset: a JSON array of cases or
// JSONL with one case per line. These are errors naming file and line:
// unknown fields, a trailing value, text that is not UTF-8 (see
// design.BadText), a case without an id or a slice, an expected other than
// answer or abstain, an answer case whose fact is missing or empty, an
// abstain case with a fact other than null, an id used twice (wrapping
// ErrDuplicateCase) and a file without any case (wrapping ErrEmpty). The
// file is read whole, so one larger than tabular.FileLimit() (1 GiB,
// --max-file-mib) is refused, and a JSONL line longer than
// tabular.RecordLimit() (64 MiB, --max-field-mib) too, each error naming
// the limit and the flag.
func ReadDataset(r io.Reader, file string) ([]Case, error) {
	data, err := tabular.ReadAll(r, file, 0)
	if err != nil {
		return nil, err
	}
	data = trimBOM(data)
	if err := checkEmpty(data, file, "cases"); err != nil {
		return nil, err
	}
	if err := checkText(data, file); err != nil {
		return nil, err
	}
	var out []Case
	rules := caseRules{}
	check := func(c Case, line int) error {
		if field, prev, err := rules.check(c, line); err != nil {
			if prev > 0 {
				err = fmt.Errorf("%w (first on line %d)", err, prev)
			}
			return &ParseError{File: file, Line: line, Field: field, Err: err}
		}
		return nil
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		err := forEachArrayElement(data, func(dec *json.Decoder, line int) error {
			var c Case
			if err := dec.Decode(&c); err != nil {
				return &ParseError{File: file, Line: line, Err: err}
			}
			out = append(out, c)
			return check(c, line)
		}, file)
		if err == nil && len(out) == 0 {
			err = emptyError(file, "no cases (the JSON array is empty)")
		}
		return out, err
	}
	err = forEachLine(data, file, func(line int, b []byte) error {
		var c Case
		if err := decodeOne(b, &c); err != nil {
			return &ParseError{File: file, Line: line, Err: err}
		}
		out = append(out, c)
		return check(c, line)
	})
	return out, err
}

// checkEmpty returns an ErrEmpty error for data with nothing but white
// space; what names the records ("cases", "results").
func checkEmpty(data []byte, file, what string) error {
	if len(bytes.TrimSpace(data)) > 0 {
		return nil
	}
	why := "the file is empty"
	if len(data) > 0 {
		why = "the file has only blank lines"
	}
	return emptyError(file, fmt.Sprintf("no %s (%s)", what, why))
}

// ReadResults reads recorded outcomes: either one JSON object from case id
// to outcome ({"E1": {"kind": "answer", "fact": "f"}, ...}) or JSONL with
// one {"id", "kind", "fact"} per line. An id recorded twice is an error (in
// the object form as in JSONL, where Go's decoder would silently keep the
// last), and so are text that is not UTF-8 (see design.BadText) and a file
// with nothing in it (ErrEmpty; "{}" records no outcome on purpose). The
// limits are those of ReadDataset.
func ReadResults(r io.Reader, file string) (map[string]Outcome, error) {
	out, _, err := ReadResultsLines(r, file)
	return out, err
}

// ReadResultsLines is ReadResults that also returns, for each id, the line
// of the file on which its outcome starts, for messages about it.
func ReadResultsLines(r io.Reader, file string) (map[string]Outcome, map[string]int, error) {
	data, err := tabular.ReadAll(r, file, 0)
	if err != nil {
		return nil, nil, err
	}
	data = trimBOM(data)
	if err := checkEmpty(data, file, "results"); err != nil {
		return nil, nil, err
	}
	if err := checkText(data, file); err != nil {
		return nil, nil, err
	}
	out := map[string]Outcome{}
	lines := map[string]int{}
	if isOutcomeMap(data) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.Token() // the opening brace, checked by isOutcomeMap
		for dec.More() {
			off := dec.InputOffset()
			tok, err := dec.Token()
			if err != nil {
				return nil, nil, &ParseError{File: file, Line: lineAt(data, off), Err: err}
			}
			id := tok.(string)
			if _, dup := out[id]; dup {
				return nil, nil, &ParseError{File: file, Line: lineAt(data, skipSep(data, off)), Err: fmt.Errorf("result for case %q recorded twice (first on line %d)", id, lines[id])}
			}
			var o Outcome
			dec.DisallowUnknownFields()
			if err := dec.Decode(&o); err != nil {
				return nil, nil, &ParseError{File: file, Line: lineAt(data, dec.InputOffset()), Err: fmt.Errorf("result %q: %w", id, err)}
			}
			if err := checkKind(o.Kind); err != nil {
				return nil, nil, &ParseError{File: file, Line: lineAt(data, off), Err: fmt.Errorf("result %q: %w", id, err)}
			}
			out[id] = o
			lines[id] = lineAt(data, skipSep(data, off))
		}
		return out, lines, nil
	}
	first := map[string]int{}
	err = forEachLine(data, file, func(line int, b []byte) error {
		var rec struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
			Fact string `json:"fact"`
		}
		if err := decodeOne(b, &rec); err != nil {
			return &ParseError{File: file, Line: line, Err: err}
		}
		if rec.ID == "" {
			return &ParseError{File: file, Line: line, Field: "id", Err: errors.New("must be a non-empty string")}
		}
		if prev, dup := first[rec.ID]; dup {
			return &ParseError{File: file, Line: line, Err: fmt.Errorf("result for case %q recorded twice (first on line %d)", rec.ID, prev)}
		}
		if err := checkKind(rec.Kind); err != nil {
			return &ParseError{File: file, Line: line, Err: err}
		}
		first[rec.ID] = line
		out[rec.ID] = Outcome{Kind: rec.Kind, Fact: rec.Fact}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, first, nil
}

// isOutcomeMap reports whether data is one JSON object whose members are
// all objects (the map form), rather than JSONL records.
func isOutcomeMap(data []byte) bool {
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		return false
	}
	for _, v := range m {
		if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' {
			return false
		}
	}
	return true
}

func forEachArrayElement(data []byte, fn func(dec *json.Decoder, line int) error, file string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if _, err := dec.Token(); err != nil {
		return &ParseError{File: file, Line: 1, Err: err}
	}
	for dec.More() {
		off := dec.InputOffset()
		if err := fn(dec, lineAt(data, skipSep(data, off))); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &ParseError{File: file, Line: lineAt(data, dec.InputOffset()), Err: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &ParseError{File: file, Line: lineAt(data, dec.InputOffset()), Err: errors.New("unexpected data after the JSON array")}
	}
	return nil
}

// forEachLine calls fn for each line of data that is not blank, with its
// 1-based number.
func forEachLine(data []byte, file string, fn func(line int, b []byte) error) error {
	ln := tabular.NewLines(bytes.NewReader(data), file, 0)
	for ln.Scan() {
		if err := fn(ln.Line(), ln.Bytes()); err != nil {
			return err
		}
	}
	return ln.Err()
}

// decodeOne decodes exactly one JSON object from b into v, rejecting
// unknown fields and trailing data.
func decodeOne(b []byte, v any) error {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		return errors.New("want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON object")
	}
	return nil
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

func skipSep(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return off
}

func trimBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
}

// checkKind accepts the three outcome kinds.
func checkKind(k string) error {
	switch k {
	case KindAnswer, KindAbstain, KindError:
		return nil
	}
	return fmt.Errorf("kind: must be %q, %q or %q, got %q", KindAnswer, KindAbstain, KindError, k)
}
