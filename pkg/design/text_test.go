package design

import (
	"errors"
	"strings"
	"testing"
)

// Each want offset is the 0-based byte index of the bad byte or of the
// backslash of the bad escape, counted by hand on the input.
func TestBadText(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		off      int
		msg      string
	}{
		{"plain ASCII", `{"a":"b"}`, -1, ""},
		{"Bengali", `{"a":"ফেরত নীতি"}`, -1, ""},
		{"surrogate pair escape", `{"a":"\ud83d\ude00"}`, -1, ""},
		{"escaped quote then escape", `{"a":"\"\u00e9"}`, -1, ""},
		{"escaped backslash before u", `{"a":"\\ud800"}`, -1, ""},
		{"surrogate text outside a string", `\ud800`, -1, ""},
		{"0xFF", "{\"a\":\"x\xff\"}", 7, "byte 0xFF is not part of a UTF-8 character"},
		{"truncated sequence", "ab\xe0\xa6", 2, "byte 0xE0"},
		{"lone high surrogate", `{"a":"x\ud800y"}`, 7, `the escape \ud800 is half of a UTF-16 surrogate pair`},
		{"lone low surrogate", `{"a":"\udc00"}`, 6, `the escape \udc00`},
		{"high surrogate then a letter escape", `{"a":"\ud800\u0041"}`, 6, `the escape \ud800`},
		{"high surrogate at the end", `"\uD800`, 1, `the escape \uD800`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off, err := BadText([]byte(tc.in))
			if off != tc.off || (err == nil) != (tc.msg == "") {
				t.Fatalf("BadText = %d, %v; want %d, %q", off, err, tc.off, tc.msg)
			}
			if err != nil && (!errors.Is(err, ErrInvalidUTF8) || !strings.Contains(err.Error(), tc.msg)) {
				t.Errorf("error %q, want it to wrap ErrInvalidUTF8 and contain %q", err, tc.msg)
			}
		})
	}
}

// Three records that differ only in the bytes of one character used to
// read alike (encoding/json turns invalid UTF-8 and lone surrogates into
// U+FFFD) and so had one dataset hash. Only the record that really holds
// U+FFFD may be read.
func TestHashNeverMergesBadText(t *testing.T) {
	for _, tc := range []struct {
		name, char string
		ok         bool
	}{
		{"byte 0xFF", "\xff", false},
		{"byte 0xFE", "\xfe", false},
		{"escaped lone surrogate", `\udfff`, false},
		{"real U+FFFD", "\ufffd", true},
		{"escaped U+FFFD", `\ufffd`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(okLine, "How long", "How"+tc.char+"long", 1)
			cases, err := ReadCases(strings.NewReader(in), "c.jsonl", DefaultVocabulary)
			if (err == nil) != tc.ok {
				t.Fatalf("ReadCases: %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && Hash(cases) == Hash(readSampleCases(t)) {
				t.Error("hash collides with the sample's")
			}
		})
	}
}

func TestReadSourceBadInput(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "s.txt: no questions"},
		{"blank", "\n\n", "s.txt: no questions"},
		{"text with 0xFF", "fine\nq \xff two\n", "s.txt:2:3: invalid UTF-8: byte 0xFF"},
		// Column 16: the backslash follows {"question": "a (15 characters).
		{"JSONL with a lone surrogate", "{\"question\": \"a\\ud800\"}\n", `s.txt:1:16 (column "question"): invalid UTF-8: the escape \ud800`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadSource(strings.NewReader(tc.in), "s", "s.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
