package main

import "io"

// textReport is a command's result from the library: it writes the
// command's text, and encodes as its JSON document.
type textReport interface {
	WriteText(w io.Writer) error
}

// render prints a command's result: its JSON document with --json, else
// its text.
func render(e *env, r textReport, asJSON bool) error {
	if asJSON {
		return writeJSON(e.stdout, r)
	}
	return r.WriteText(e.stdout)
}
