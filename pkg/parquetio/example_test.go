package parquetio_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evalbook/evalbook/pkg/parquetio"
	"github.com/evalbook/evalbook/pkg/qa"
)

// Score a response table, write its verdict rows to Parquet, and read
// the file back with the same package's reader (what
// `evalbook score --responses verdicts.parquet` would read).
func Example() {
	csv := "question,answer,Domain,response\n" +
		"Capital of India?,New Delhi,geo,It is New Delhi.\n" +
		"भारत की राजधानी?,नई दिल्ली,geo,मुंबई\n"
	var file bytes.Buffer
	n, err := parquetio.WriteRows(&file, qa.Rows(context.Background(), strings.NewReader(csv), "r.csv", qa.Options{}), parquetio.WriteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	src, err := parquetio.Open(bytes.NewReader(file.Bytes()), "verdicts.parquet")
	if err != nil {
		fmt.Println(err)
		return
	}
	header, _ := src.Header()
	fmt.Println(n, "rows:", strings.Join(header, ","))
	for {
		row, _, err := src.Next()
		if err == io.EOF {
			break
		}
		fmt.Println(row[0], row[4], row[8])
	}
	// Output:
	// 2 rows: question,answer,Domain,response,exact_substring,word_overlap,matching_words,total_golden_words,blank_response,empty_golden
	// Capital of India? 1 false
	// भारत की राजधानी? 0 false
}

func ExampleHiveEscape() {
	fmt.Println(parquetio.HiveEscape("gpt/4o:mini"), parquetio.HiveEscape("हिन्दी"), parquetio.HiveEscape(""))
	// Output: gpt%2F4o%3Amini हिन्दी __HIVE_DEFAULT_PARTITION__
}
