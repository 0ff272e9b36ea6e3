package tasks

// Codes of the warnings a Result carries (DESIGN.md lists them with the
// result JSON of task run).
const (
	// CodeNoScoredItems: a task string with no scored item (every call failed).
	CodeNoScoredItems = "no_scored_items"
	// CodeCostUnknown: no cost, because the token counts are unknown or the
	// price file has no price for the model.
	CodeCostUnknown = "cost_unknown"
	// CodeFailedCalls: items whose call failed after its retries, left out
	// of every metric (Count: the items).
	CodeFailedCalls = "failed_calls"
	// CodeTokenStraddlesBoundary: continuations whose first token began
	// inside the context.
	CodeTokenStraddlesBoundary = "token_straddles_boundary"
	// CodeFewerShots: items with fewer few-shot examples than asked.
	CodeFewerShots = "fewer_shots"
	// CodeEmptyChoice: choices with no characters (acc_norm divides by 1).
	CodeEmptyChoice = "empty_choice"
	// CodeNoExtractedAnswer: responses the extraction regex did not match.
	CodeNoExtractedAnswer = "no_extracted_answer"
	// CodeUsageUnknown: replies without a usage member: token counts are
	// unknown (null), not 0.
	CodeUsageUnknown = "usage_unknown"
	// CodeMetricsNotRecorded: details written before the header recorded
	// each task's metric ids, scored as they were run.
	CodeMetricsNotRecorded = "metrics_not_recorded"
)
