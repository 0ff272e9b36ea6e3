package tabular

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withAlias makes every record of at least rec bytes hand out its fields
// of at least field bytes as strings of the read buffer (strings), for
// the test.
func withAlias(t *testing.T, rec, field int) {
	oldR, oldF := aliasRecord, aliasField
	t.Cleanup(func() { aliasRecord, aliasField = oldR, oldF })
	aliasRecord, aliasField = rec, field
}

// With fields cut from the buffer (a huge record's, here any of 4 bytes
// or more), the reader still reads what encoding/csv reads, and the
// strings of earlier records stay as they were after later reads
// (ownCSV keeps them all before they are compared): the buffer they
// share is never written again.
func TestCSVAliasedFieldsAsEncodingCSV(t *testing.T) {
	withAlias(t, 4, 2)
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{",", "\"", "\r", "\n", "a", "क", "bb"}
	var b strings.Builder
	for range 5000 {
		b.Reset()
		for range r.IntN(40) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		checkSameCSV(t, b.String(), 8+r.IntN(40))
	}
}

// A table read from a file grows its buffer no further than the file
// has left: one long record at the end gets a buffer of about its size
// (here 300 kB, where doubling from 64 KiB reached 512 KiB), and its
// fields, short and long, read back as written.
func TestCSVBufferBoundedByFile(t *testing.T) {
	long := strings.Repeat("the answer is 42, ok ", 300000/21)
	in := "id,response,n\n1,short,1\n2,\"" + long + "\",3\n"
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	withAlias(t, 100<<10, 64<<10)
	rd, err := NewReader(f, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	s := rd.src.(*csvSource)
	for rd.Scan() {
		got = append(got, rd.Record().Fields)
		if len(got) == 2 {
			if len(s.buf) > len(in)+1 || !s.given {
				t.Errorf("the long record: a buffer of %d bytes for a file of %d, given %v (want at most the file and a byte, given)", len(s.buf), len(in), s.given)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || strings.Join(got[0], "|") != "1|short|1" || got[1][0] != "2" || got[1][1] != long || got[1][2] != "3" {
		t.Fatalf("read %d records, the second %q..., want 1|short|1 and the long one", len(got), strings.Join(got[len(got)-1], "|")[:40])
	}
}
