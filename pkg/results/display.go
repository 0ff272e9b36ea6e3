package results

import "strings"

// DisplayName is how a report names an input file: its base name, without
// the folders before it, so that a report a user forwards does not show
// where the sender keeps their files (and a title fits a phone's width).
// Both / and \ separate folders; a name that ends in a separator keeps
// its last element. The empty name stays empty.
func DisplayName(path string) string {
	p := strings.TrimRight(path, `/\`)
	if p == "" {
		return path
	}
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
