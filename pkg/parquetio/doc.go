// Package parquetio takes evalbook's data in and out of Parquet, the
// columnar format of Hugging Face datasets, lighteval's details, DuckDB,
// Spark and most warehouses. It is an edge package: it needs arrow-go
// (github.com/apache/arrow-go/v18, pure Go), which the core must not
// import (internal/depcheck says so).
//
// Reading: importing the package registers the format "parquet" with
// pkg/qa, so response tables in Parquet are scored like CSV:
//
//	import _ "github.com/evalbook/evalbook/pkg/parquetio"
//	res, err := qa.ScoreFile(ctx, "responses.parquet", qa.Options{})
//
// Source (Open) is that reader: top-level columns become fields, values
// become text, a null becomes "" (a blank response), lists and structs
// are refused in the columns the scorer reads; errors name the file, the
// row, the row group and the column. ReadLighteval reads lighteval's
// details_*.parquet files, across the layouts lighteval has written.
//
// Writing: a Writer writes verdict rows (results.Row, from qa.Rows or
// qa.Options.Rows) to one Parquet file with typed columns (`score --out
// verdicts.parquet`); a DirWriter writes them to a Hive-partitioned folder
// (`--out-dir verdicts/ --partition-by model,language`) that DuckDB reads
// with read_parquet('verdicts/**/*.parquet', hive_partitioning = true).
package parquetio
