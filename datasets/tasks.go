package datasets

import "embed"

// TasksRoot is the folder of the shipped task files inside Tasks.
const TasksRoot = "tasks"

// Tasks holds the shipped task files for evalbook task run (suite
// "indiceval", as the Indic Eval task strings write it), each a task.json
// with one small synthetic JSONL file per language (english, hindi,
// bengali) holding its test and train rows (see tasks/README.md):
//
//	tasks/arc_easy    ARC-Easy    mc_loglik   6 test + 4 train per language
//	tasks/hellaswag   HellaSwag   mc_loglik   3 test + 2 train
//	tasks/boolq       BoolQ       mc_loglik   3 test + 2 train (no/yes in each language)
//	tasks/mmlu        MMLU        mc_letter   4 test + 3 train
//	tasks/translate   Translate   generative  4 test + 2 train, 5 samples (pass@3, maj@3)
//
// The questions were written for this project.
//
//go:embed tasks
var Tasks embed.FS
