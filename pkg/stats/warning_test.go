package stats

import "strings"

// codes joins the codes of ws with spaces, for comparing in tests.
func codes(ws []Warning) string {
	var c []string
	for _, w := range ws {
		c = append(c, w.Code)
	}
	return strings.Join(c, " ")
}

// messages joins the messages of ws with " | ".
func messages(ws []Warning) string {
	var m []string
	for _, w := range ws {
		m = append(m, w.Message)
	}
	return strings.Join(m, " | ")
}
