package datasets

import "embed"

// Judge holds the judge calibration data in judge/:
//
//	judge/pairs.jsonl      30 labelled answer pairs (English and Bengali) over
//	                       the six kinds clear, verbose_tie, padded_wrong,
//	                       cite, tie and self, with two annotators' labels
//	                       and the adjudicated final label
//	judge/guidelines.md    the pairwise labelling guidelines the labels follow
//	judge/prompts.json     the versioned judge prompts (pairwise v1 and v2,
//	                       reference v1)
//
//go:embed judge/pairs.jsonl judge/guidelines.md judge/prompts.json
var Judge embed.FS
