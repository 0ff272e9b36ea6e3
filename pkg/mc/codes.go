package mc

// Codes of the warnings a Report carries (with stats', for its intervals).
const (
	// CodeUnparsedPrediction: predictions (letters mode) that name no
	// option; they count as wrong.
	CodeUnparsedPrediction = "unparsed_prediction"
	// CodeUnlikelyGold: gold labels past J, the tenth option (a likely
	// typo; scored as written).
	CodeUnlikelyGold = "unlikely_gold"
	// CodePositiveLoglik: options with a log-likelihood above 0, which a
	// log-probability never is.
	CodePositiveLoglik = "positive_loglik"
	// CodeNoTokens: questions with an option without a token count, so
	// acc_norm_token is not reported.
	CodeNoTokens = "no_tokens"
	// CodeEmptyChoiceText: questions with an option of no text (its length
	// counts as 1 character for acc_norm_char).
	CodeEmptyChoiceText = "empty_choice_text"
	// CodeSmallGroup: a group of fewer than 30 questions (Count: its
	// questions).
	CodeSmallGroup = "small_group"
)
