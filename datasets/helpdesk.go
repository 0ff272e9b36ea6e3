package datasets

import "embed"

// Helpdesk is the sample help centre of Inkwell Row, a fictional online pen
// shop, in English and Bengali (see helpdesk/README.md):
//
//	helpdesk/corpus/*.md           help-centre pages, one document each
//	helpdesk/cases.jsonl           31 case records over five tasks and three sets
//	helpdesk/plan_v1.json          the evaluation plan (no problems)
//	helpdesk/plan_weak.json        the same plan with abstain_correct demoted to report
//	helpdesk/sources/              outside texts for the leakage check
//	helpdesk/seed004_*.json        the answer-or-abstain fixture of seed 004
//	helpdesk/example_*.json        the worked example of seed 004
//
//go:embed helpdesk
var Helpdesk embed.FS
