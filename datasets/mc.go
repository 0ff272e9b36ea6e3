package datasets

import "embed"

// MCPredictionsName is the file name of the sample multiple-choice
// prediction file inside MC.
const MCPredictionsName = "mc/kestrel-7b_predictions.csv"

// MC is the sample multiple-choice prediction set (see mc/README.md):
//
//	mc/kestrel-7b_predictions.csv   8 questions (science, geography, history)
//	                                asked in English, Hindi, Bengali and Tamil,
//	                                one row per option with its log-likelihood
//	                                and token count; option labels in each
//	                                language's script (A, क, ক, அ)
//
// The questions are general knowledge written for this project; the
// log-likelihoods are synthetic (a fictional model, weaker in Tamil).
//
//go:embed mc/*.csv mc/README.md
var MC embed.FS
