package score

// The ids of the choice and samples metrics, which evalbook mc and
// evalbook task run report. RecallAtK, PassAtK and MajAtK are families:
// Find("recall@2") finds RecallAtK.
const (
	Acc          = "acc"
	AccNorm      = "acc_norm"
	AccNormToken = "acc_norm_token"
	MRR          = "mrr"
	RecallAtK    = "recall@k"
	PassAtK      = "pass@k"
	MajAtK       = "maj@k"
	// AccNormChar is acc_norm's alias: evalbook mc's name for the same
	// rule before the metrics had one home.
	AccNormChar = "acc_norm_char"
)

// The ids of the two exact-match rules: ExactMatch is byte equality
// (after a score command's --normalize profile), LooseExactMatch the
// rule evalbook task run used to call exact_match.
const (
	ExactMatch      = "exact_match"
	LooseExactMatch = "loose_exact_match"
)

// An Option is one option of a multiple-choice item as the choice
// metrics see it.
type Option struct {
	// LogLik is the option's log-likelihood given the question (the sum
	// of its continuation tokens' log-probabilities).
	LogLik float64
	// Chars is the option's length in characters (Unicode code points)
	// without the delimiter before it (lm-eval's len(choice)); 0 counts
	// as 1.
	Chars int
	// Tokens is the number of tokens of the option's continuation; 0 when
	// unknown (acc_norm_token needs it above 0 for every option).
	Tokens int
}

// A ChoiceDef is how a choice metric values one multiple-choice item:
// options are ranked by Key, highest first, ties going to the option
// listed first, and the item's value is Value of the gold option's rank.
type ChoiceDef struct {
	// Key is what the options are ranked by.
	Key func(Option) float64
	// Value is the item's value from the gold option's 1-based rank and
	// k (recall@k's k; the other metrics ignore it).
	Value func(rank, k int) float64
	// NeedsTokens says the key needs every option's Tokens above 0.
	NeedsTokens bool
}

// The keys the choice metrics rank options by.
var (
	// ByLogLik is the option's log-likelihood (acc, mrr, recall@k).
	ByLogLik = func(o Option) float64 { return o.LogLik }
	// ByLogLikPerChar is the log-likelihood divided by the option's
	// characters, an empty option counting as 1 (acc_norm).
	ByLogLikPerChar = func(o Option) float64 { return o.LogLik / float64(max(o.Chars, 1)) }
	// ByLogLikPerToken is the log-likelihood divided by the option's
	// tokens (acc_norm_token; every option needs Tokens above 0).
	ByLogLikPerToken = func(o Option) float64 { return o.LogLik / float64(o.Tokens) }
)

// Rank returns the 1-based rank of option gold when opts are ranked by
// key, highest first, ties going to the option listed first (as numpy's
// argmax):
//
//	rank = 1 + #{j : key_j > key_gold} + #{j < gold : key_j = key_gold}
//
// So rank 1 means Pick(opts, key) == gold, and a gold option tied with an
// earlier one is not ranked first. A gold index outside opts has rank
// len(opts)+1 (below every option).
func Rank(opts []Option, gold int, key func(Option) float64) int {
	if gold < 0 || gold >= len(opts) {
		return len(opts) + 1
	}
	g := key(opts[gold])
	r := 1
	for j, o := range opts {
		if s := key(o); s > g || s == g && j < gold {
			r++
		}
	}
	return r
}

// Pick returns the option ranked first by key: the first of the options
// with the largest key. It returns 0 for no options.
func Pick(opts []Option, key func(Option) float64) int {
	best := 0
	for i := 1; i < len(opts); i++ {
		if key(opts[i]) > key(opts[best]) {
			best = i
		}
	}
	return best
}

// ChoiceValue returns the choice metric m's value for one item: Value of
// the gold option's rank under Key. k is recall@k's k (ignored by the
// other metrics). It panics if m is not a choice metric.
func (m *Metric) ChoiceValue(opts []Option, gold, k int) float64 {
	return m.Choice.Value(Rank(opts, gold, m.Choice.Key), k)
}

func first(rank, _ int) float64 {
	if rank == 1 {
		return 1
	}
	return 0
}

// choiceTies is what every choice metric says about ties.
const choiceTies = " Ties go to the option listed first (numpy's argmax): a gold option tied with an earlier one is not picked."

func init() {
	Register(&Metric{
		ID:   Acc,
		Name: "Accuracy (multiple choice)",
		Kind: KindChoice,
		Rule: "1 when the option the model picks is the gold one, else 0. From log-likelihoods the pick is the option " +
			"with the largest log-likelihood (the sum of its continuation tokens' log-probabilities)." + choiceTies +
			" From a named option (evalbook mc's letter files, task run's mc_letter) the pick is the option the answer names; " +
			"an answer that names no option scores 0.",
		FalsePositives: "A lucky guess scores 1 (a quarter of the time with four options); a letter extracted from prose " +
			"that never chose it counts as the model's pick.",
		FalseNegatives: "Log-likelihood favours short and frequent options, so a right answer written in more characters " +
			"or rarer words loses (acc_norm divides by length); a tie with an earlier option scores 0.",
		Blank: "Every option has a log-likelihood (NaN and +Inf are refused when read; -Inf is an impossible option). " +
			"An answer that names no option scores 0 and is counted in a warning.",
		Source: "lm-evaluation-harness multiple_choice acc (numpy argmax of the log-likelihoods)",
		Choice: &ChoiceDef{Key: ByLogLik, Value: first},
	})
	Register(&Metric{
		ID:      AccNorm,
		Name:    "Length-normalised accuracy (per character)",
		Kind:    KindChoice,
		Aliases: []string{AccNormChar},
		Rule: "1 when the option with the largest log-likelihood divided by the option's length in characters " +
			"(Unicode code points of the option's text, without the delimiter before it; an empty option counts as 1) " +
			"is the gold one, else 0." + choiceTies + " acc_norm_char is another name for this metric.",
		FalsePositives: "Dividing by length favours long options whose later characters are near-certain once the first are " +
			"seen; a positive score (not a log-probability) favours long options outright.",
		FalseNegatives: "Characters per token differ by script, so the divisor weighs Hindi or Bengali options (matras count " +
			"as characters) differently from English ones; a tie with an earlier option scores 0.",
		Blank:  "An option with no text counts as 1 character, and is counted in a warning.",
		Source: "lm-evaluation-harness multiple_choice acc_norm (log-likelihood / len(choice))",
		Choice: &ChoiceDef{Key: ByLogLikPerChar, Value: first},
	})
	Register(&Metric{
		ID:   AccNormToken,
		Name: "Length-normalised accuracy (per token)",
		Kind: KindChoice,
		Rule: "1 when the option with the largest log-likelihood divided by the option's number of tokens is the gold one, " +
			"else 0; reported only when every option has a token count." + choiceTies,
		FalsePositives: "As acc_norm, with the model's own tokenizer as the unit: options the tokenizer splits finely are favoured.",
		FalseNegatives: "Tokenizers split Indic scripts into many more tokens than English, so the figure is not comparable " +
			"across models with different tokenizers.",
		Blank:  "Not reported for a file in which some option has no token count.",
		Source: "lighteval LogProbTokenNorm (acc_norm per token)",
		Choice: &ChoiceDef{Key: ByLogLikPerToken, Value: first, NeedsTokens: true},
	})
	Register(&Metric{
		ID:     MRR,
		Name:   "Mean reciprocal rank",
		Kind:   KindChoice,
		Graded: true,
		Rule: "1/rank of the gold option when the options are ranked by log-likelihood, highest first " +
			"(rank = 1 + the options scored higher + the earlier options scored equal); the figure is the mean over items.",
		FalsePositives: "A gold option ranked second earns 0.5 though the model picked another.",
		FalseNegatives: "As acc: short, frequent options rank high whatever they say.",
		Blank:          "As acc.",
		Source:         "lighteval mrr (mean reciprocal rank over log-likelihoods)",
		Choice:         &ChoiceDef{Key: ByLogLik, Value: func(rank, _ int) float64 { return 1 / float64(rank) }},
	})
	Register(&Metric{
		ID:   RecallAtK,
		Name: "Recall at k",
		Kind: KindChoice,
		Rule: "1 when the gold option is among the k options ranked first by log-likelihood (rank <= k, ranks as mrr's), " +
			"else 0; the id carries k (recall@2). recall@1 equals acc.",
		FalsePositives: "With k near the number of options almost every item passes.",
		FalseNegatives: "As acc.",
		Blank:          "As acc.",
		Source:         "lighteval recall_at_k",
		Choice: &ChoiceDef{Key: ByLogLik, Value: func(rank, k int) float64 {
			if rank <= k {
				return 1
			}
			return 0
		}},
	})
	const match = "the task's match metric (exact_match, or loose_exact_match when the task file names it; reported beside it)"
	Register(&Metric{
		ID:     PassAtK,
		Name:   "pass@k",
		Kind:   KindSamples,
		Graded: true,
		Rule: "Of an item's n sampled answers, c are correct under " + match + "; the item's value is the unbiased estimate " +
			"1 - C(n-c, k)/C(n, k) that at least one of k samples drawn without replacement is correct (stats.PassAtK), " +
			"and the figure is the mean over items with a bootstrap interval. The id carries k (pass@3).",
		FalsePositives: "Many diverse guesses score high though no single answer is reliable; the match metric's own false positives count.",
		FalseNegatives: "The match metric's: a right answer written differently (another script, digits, a paraphrase) is a wrong sample.",
		Blank:          "A sample the task's extraction regex does not match is wrong, and is counted in a warning.",
		Source:         "Chen et al. 2021, Evaluating Large Language Models Trained on Code (the unbiased estimator)",
	})
	Register(&Metric{
		ID:     MajAtK,
		Name:   "maj@k",
		Kind:   KindSamples,
		Graded: true,
		Rule: "The probability that the most frequent answer among k samples drawn without replacement from the item's n " +
			"is the golden one, answers being grouped by the normal form of " + match + "; a tie for the most votes is " +
			"shared (a correct answer tied with r others counts 1/(r+1)); exact over all C(n, k) draws (stats.MajAtK), " +
			"not the majority of the first k. The id carries k (maj@3).",
		FalsePositives: "The match metric's: answers it merges vote together.",
		FalseNegatives: "Right answers written in different forms split their votes and can lose to one repeated wrong answer.",
		Blank:          "An item with an empty golden answer is left out; a sample with nothing extracted is a vote that is never correct.",
		Source:         "Wang et al. 2023, Self-Consistency (majority vote), as an exact expectation over draws",
	})
}
