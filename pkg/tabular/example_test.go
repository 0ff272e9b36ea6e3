package tabular_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

func ExampleOpen() {
	in := "id,label\n" +
		"p1,হ্যাঁ\n" +
		"p2,না\xff\n" // a byte that is not UTF-8
	rd, err := tabular.Open(strings.NewReader(in), "labels.csv", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rd.Header())
	for rd.Scan() {
		rec := rd.Record()
		fmt.Println(rec.Line, rec.Fields)
	}
	var pe *tabular.ParseError
	if err := rd.Err(); errors.As(err, &pe) {
		// p 2 , (1-3) ন া (4-5): the bad byte is character 6 of line 3
		// (byte 10).
		fmt.Println(pe.Line, pe.Column, pe.Field, errors.Is(err, tabular.ErrInvalidUTF8))
		fmt.Println(err)
	}
	// Output:
	// [id label]
	// 2 [p1 হ্যাঁ]
	// 3 6 label true
	// labels.csv:3:6 (column "label"): invalid UTF-8: first bad byte 0xFF at character 3 of the field; re-save the file as UTF-8
}
