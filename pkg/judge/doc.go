// Package judge treats an LLM judge as an instrument: versioned prompts,
// strict parsing of replies, deterministic fake judges with switchable
// biases, bias probes, and calibration against human labels per slice. A
// model judge (ClientJudge) sends its prompts through an llm.Completer,
// such as pkg/llm's client for OpenAI-compatible endpoints.
//
// # Prompts
//
// A Prompt is data (datasets/judge/prompts.json): a name, a version, a
// kind (reference or pairwise), ordered criteria and a text with
// placeholders. Its Hash covers every word of the text, so a changed word
// is a new judge. Rendering puts the question and the answers between
// delimiters whose tag the data cannot forge, and says they are untrusted.
//
// # Replies
//
// ParsePairwise and ParseReference accept the reply contract and nothing
// else (a code fence around the object is unwrapped). A ClientJudge counts
// every rejected reply by reason and, for a pairwise comparison, treats it
// as a tie.
//
// # Fake judges, probes and calibration
//
// Fake scores an answer by the share of listed facts it contains, plus
// 0.15 for a cited source id, plus switchable bonuses for position,
// verbosity and its own style, and can be blind to Bangla. Fakes returns
// the named set clean, position, verbosity, self and mixed. RunProbes
// measures each bias's fingerprint (first_pick, order_flip, longer_wins,
// self_wins); Calibrate compares a judge with the final human labels and
// returns a Record (agreement with a bootstrap interval, kappa, confusion,
// per kind and per language, order disagreements, error shapes); Usable
// and IsStale turn a record into decisions. Dimensions judges correctness,
// evidence and concision separately.
//
// # Model judges
//
// ClientJudge renders a prompt, asks any llm.Completer, and parses the
// reply; JudgeReferences judges many rows at once; ComparePrompts
// calibrates one model with two prompt wordings. The HTTP client itself
// (retries, rate limits, the resumable cache, secret handling) is
// pkg/llm's Client.
//
// # What the commands compute
//
// Each judge command is one call with a result that writes the command's
// text (WriteText), gives its tables (Tables) and encodes as its JSON:
//
//	evalbook calibrate  CalibrateJudge -> *Calibration (a Record, Usable's verdict, a PromptComparison with a second prompt)
//	evalbook probes     ProbeJudge per judge, NewProbeReport -> *ProbeReport
//	evalbook judge      ReadResponses, JudgeResponses -> *RunSummary (and Responses.WriteVerdicts for --out)
//
// Warnings are results.Warning values with stable codes (see
// Record.Warnings).
package judge
