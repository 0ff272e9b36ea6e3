package results

import (
	"bytes"
	"strings"
	"testing"
)

// TestScoreWriteCSVGuardsGroups: a group name a spreadsheet would run
// as a formula is written with a leading '; numbers stay numbers.
func TestScoreWriteCSVGuardsGroups(t *testing.T) {
	s := &Score{Groups: []Group{{By: "Domain", Group: "=HYPERLINK(1)"}, {By: "Domain", Group: "-2.5"}}}
	var b bytes.Buffer
	if err := s.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "Domain,'=HYPERLINK(1),") || !strings.Contains(out, "Domain,-2.5,") {
		t.Errorf("WriteCSV wrote\n%s", out)
	}
}
