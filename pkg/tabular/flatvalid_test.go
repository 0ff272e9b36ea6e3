package tabular

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// randJSONValue writes a random JSON value: strings with escapes, quotes,
// brackets and non-ASCII text inside, numbers in their forms, literals,
// and nested objects and arrays, with random white space between tokens.
func randJSONValue(r *rand.Rand, b *strings.Builder, depth int) {
	ws := func() { b.WriteString([]string{"", "", " ", "\t", "\n ", "\r\n"}[r.IntN(6)]) }
	switch k := r.IntN(10); {
	case k < 4 || depth > 2:
		parts := []string{"a", "ok", `\"`, `\\`, `\n`, `\u0915`, "{", "}", "[", "]", ",", ":", "हिन्दी", "বাংলা", " ", `\/`}
		b.WriteByte('"')
		for range r.IntN(6) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		b.WriteByte('"')
	case k < 6:
		b.WriteString([]string{"0", "-1", "3.25", "1e9", "-0.5E-3", "42"}[r.IntN(6)])
	case k < 7:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	case k < 8:
		b.WriteByte('[')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			randJSONValue(r, b, depth+1)
			ws()
		}
		b.WriteByte(']')
	default:
		randJSONObject(r, b, depth+1, false)
	}
}

// randJSONObject writes a random object; with dup, keys may repeat.
func randJSONObject(r *rand.Rand, b *strings.Builder, depth int, dup bool) {
	ws := func() { b.WriteString([]string{"", "", " ", "\t", "\n"}[r.IntN(5)]) }
	keys := []string{"id", "response", "answer", `q\"x`, "भाषा", `\u0041`, "A"}
	b.WriteByte('{')
	used := map[int]bool{}
	for i := range r.IntN(5) {
		k := r.IntN(len(keys))
		if used[k] && !dup {
			continue
		}
		used[k] = true
		if i > 0 && b.String()[b.Len()-1] != '{' {
			b.WriteByte(',')
		}
		ws()
		fmt.Fprintf(b, `"%s"`, keys[k])
		ws()
		b.WriteByte(':')
		ws()
		randJSONValue(r, b, depth)
		ws()
	}
	b.WriteByte('}')
}

// flatValid, the in-place walk of a long line, gives what flatObject
// gives (keys, value texts, kinds, value offsets) on every valid object,
// and declines (nil) every line flatObject refuses, on 20,000 random
// lines: objects with escapes and brackets inside strings, nested
// values, white space, repeated keys ("A" and "\u0041" are one key), and
// broken copies of them (cut short, a byte changed, trailing data).
func TestFlatValidMatchesFlatObject(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	valid, declined := 0, 0
	for n := range 20000 {
		var b strings.Builder
		randJSONObject(r, &b, 0, n%3 == 0)
		line := []byte(b.String())
		switch n % 7 {
		case 1:
			line = line[:r.IntN(len(line))]
		case 2:
			line = append([]byte(nil), line...)
			line[r.IntN(len(line))] = "{}[],:\"x \\"[r.IntN(10)]
		case 3:
			line = append(line, []byte(` {}`)...)
		}
		want, err := flatObject(line)
		got := flatValid(line, n%2 == 0 && utf8.Valid(line))
		if err != nil {
			if got != nil {
				t.Fatalf("%q: flatObject refuses it (%v) but flatValid reads %+v", line, err, got)
			}
			declined++
			continue
		}
		if got == nil {
			t.Fatalf("%q: flatValid declines what flatObject reads as %+v", line, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nflatValid  %+v\nflatObject %+v", line, got, want)
		}
		valid++
	}
	if valid < 5000 || declined < 2000 {
		t.Errorf("%d valid lines and %d refused: the generator does not cover both", valid, declined)
	}
}

// Through the reader, the fast path for long lines gives the same
// records and the same errors as the decoder (flatFastFrom 0 sends every
// line through it).
func TestJSONLFastPathReader(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	read := func(in string) string {
		rd, err := NewReader(strings.NewReader(in), "t.jsonl", Options{})
		if err != nil {
			return "open: " + err.Error()
		}
		var out strings.Builder
		for rd.Scan() {
			fmt.Fprintf(&out, "%q\n", rd.Record().Fields)
		}
		if err := rd.Err(); err != nil {
			out.WriteString("err: " + err.Error())
		}
		return out.String()
	}
	saved := flatFastFrom
	t.Cleanup(func() { flatFastFrom = saved })
	for n := range 2000 {
		var b strings.Builder
		for i := range 1 + r.IntN(5) {
			var o strings.Builder
			randJSONObject(r, &o, 0, n%5 == 0 && i == 2)
			long := ""
			if r.IntN(4) == 0 { // longer than the 64 KiB read buffer: a line of its own buffer, shared
				long = `,"long":"` + strings.Repeat("ক", 22000+r.IntN(100)) + `"`
			}
			b.WriteString(`{"id":"` + fmt.Sprint(i) + `","v":` + o.String() + long + "}\n")
		}
		in := b.String()
		flatFastFrom = saved
		want := read(in)
		flatFastFrom = 0
		if got := read(in); got != want {
			t.Fatalf("%q:\nfast path %s\ndecoder   %s", in, got, want)
		}
	}
}
