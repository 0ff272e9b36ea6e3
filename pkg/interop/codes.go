package interop

// Codes of the warnings a Run carries.
const (
	// CodeRequestsWithoutOutput: OpenAI batch requests with no line in the
	// output (the batch expired or was cancelled before them).
	CodeRequestsWithoutOutput = "requests_without_output"
	// CodeNoInstanceFile: an Every Eval Ever aggregate names no per-sample
	// file; only its aggregates are read.
	CodeNoInstanceFile = "no_instance_file"
	// CodeChecksumMismatch: an Every Eval Ever per-sample file's hash
	// differs from the one its aggregate records.
	CodeChecksumMismatch = "checksum_mismatch"
	// CodeRowCountMismatch: an Every Eval Ever per-sample file's record
	// count differs from the aggregate's total_rows.
	CodeRowCountMismatch = "row_count_mismatch"
	// CodeLogStillWriting: an inspect log with no header.json (still being
	// written, or stopped): its samples are read, with no figures to check.
	CodeLogStillWriting = "log_still_writing"
	// CodeLogNotSuccessful: an inspect log whose status is not success.
	CodeLogNotSuccessful = "log_not_successful"
	// CodeDetailsNeedParquet: lighteval details in Parquet, read only with
	// the Parquet reader registered.
	CodeDetailsNeedParquet = "details_need_parquet"
	// CodeSamplesWithoutResults: lm-eval samples files with no results
	// file of the same date beside them.
	CodeSamplesWithoutResults = "samples_without_results"
	// CodeDuplicatesDropped: samples read twice were left out
	// (Options.DropDuplicates); the count says how many.
	CodeDuplicatesDropped = "duplicates_dropped"
	// CodeRunLimited: lm-eval ran on fewer documents than the task has
	// (n-samples effective below original: a --limit run).
	CodeRunLimited = "run_limited"
)
