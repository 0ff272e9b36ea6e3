package tabular

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// QuoteMax is how many characters of a value an error message quotes.
const QuoteMax = 200

// Quote returns s quoted as %q writes it, for an error message, if it
// has at most QuoteMax characters; a longer value is cut to its first
// QuoteMax characters, quoted, and followed by its length, so a 50 MB id
// does not become 50 MB of standard error:
//
//	"abc"
//	"aaaa…aaaa"… (52428800 bytes)
func Quote(s string) string {
	if len(s) <= QuoteMax {
		return strconv.Quote(s)
	}
	cut, n := 0, 0
	for cut < len(s) && n < QuoteMax {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
		n++
	}
	if cut == len(s) {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cut]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// QuoteList quotes each name with Quote and joins them with ", ",
// listing at most QuoteMax/10 names (then how many more there are), so
// a header of a million columns stays a line.
func QuoteList(names []string) string {
	const most = QuoteMax / 10
	q := make([]string, 0, min(len(names), most)+1)
	for i, n := range names {
		if i == most {
			q = append(q, "and "+strconv.Itoa(len(names)-most)+" more")
			break
		}
		q = append(q, Quote(n))
	}
	return strings.Join(q, ", ")
}

// Names joins names with ", " as a header is listed in a message:
// unquoted, but a name longer than QuoteMax characters is quoted and
// cut as Quote does, and at most QuoteMax/10 names are listed.
func Names(names []string) string {
	const most = QuoteMax / 10
	q := make([]string, 0, min(len(names), most)+1)
	for i, n := range names {
		if i == most {
			q = append(q, "and "+strconv.Itoa(len(names)-most)+" more")
			break
		}
		if utf8.RuneCountInString(n) > QuoteMax {
			n = Quote(n)
		}
		q = append(q, n)
	}
	return strings.Join(q, ", ")
}
