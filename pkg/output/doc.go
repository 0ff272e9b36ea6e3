// Package output writes a result's outputs: the files people forward and
// the rows of a scoring run. It is the one place the command and a
// notebook turn a result into files, and every file is written
// atomically (a temporary file beside it, renamed into place once
// complete), so a failed write leaves any earlier file intact.
//
// Report files (files.go): WriteScore writes a score result's Excel
// workbook, self-contained HTML page and chart images (PNG and SVG);
// WriteTables writes any result's tables (results.Report.Tables) as a
// workbook and a page; WriteFigures writes charts.
//
//	written, err := output.WriteScore(res, output.Files{XLSX: "report.xlsx", HTML: "report.html", Verdicts: "verdicts.csv"})
//
// Rows (rows.go): OpenRows sends the rows of a scoring run (pkg/qa) where
// they were asked to go, all in one pass: the verdict CSV (a file, or a
// writer such as standard output), a typed Parquet file, a
// Hive-partitioned Parquet folder, an Every Eval Ever export, and a
// temporary verdict CSV that a workbook or an HTML page can list rows
// from when no verdict CSV file was asked for. Nothing replaces an old
// file until Commit, and Close removes what was not committed.
//
//	out, err := output.OpenRows(output.RowOptions{Out: "verdicts.parquet", Dir: "by-model", By: []string{"model"}})
//	if err != nil { ... }
//	defer out.Close()
//	out.Attach(&opt) // opt is the qa.Options of the run
//	res, err := qa.Score(ctx, in, name, opt)
//	if err != nil { ... }
//	said, err := out.Commit(res) // e.g. "1000 rows in 3 files to by-model (partitioned by model)"
//
// It is an edge package: it joins pkg/xlsxreport (excelize),
// pkg/htmlreport, pkg/chart (gonum/plot) and pkg/parquetio (arrow-go),
// which the core must not import. Reading is elsewhere: pkg/qa and
// pkg/xlsxread read response tables, results.ReadResult a saved result.
package output
