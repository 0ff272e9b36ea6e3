// Command csvparse reads a CSV file with encoding/csv and does nothing else:
// the parse-only floor that scripts/bench-pandas.sh compares score against.
//
// Usage: csvparse FILE
//
// It reads every record (ReuseRecord, so no per-row allocation of the
// slice), counts records and bytes of fields, and prints both, so that the
// pass cannot be optimised away.
package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: csvparse FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "csvparse:", err)
		os.Exit(1)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	r.ReuseRecord = true
	r.FieldsPerRecord = -1
	var recs, bytes int
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "csvparse: %s: %v\n", os.Args[1], err)
			os.Exit(1)
		}
		recs++
		for _, v := range rec {
			bytes += len(v)
		}
	}
	fmt.Printf("%d records, %d field bytes\n", recs, bytes)
}
