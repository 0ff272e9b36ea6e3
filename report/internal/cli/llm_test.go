package cli

import "testing"

// keptInMemory agrees in number with its count.
func TestKeptInMemory(t *testing.T) {
	for n, want := range map[int]string{
		0: "the 0 replies received were kept in memory only and are lost",
		1: "the 1 reply received was kept in memory only and is lost",
		5: "the 5 replies received were kept in memory only and are lost",
	} {
		if got := keptInMemory(n); got != want {
			t.Errorf("keptInMemory(%d) = %q, want %q", n, got, want)
		}
	}
}
