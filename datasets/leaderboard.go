package datasets

import "embed"

// Leaderboard is the sample leaderboard directory (see
// leaderboard/README.md): 15 response files <model>_<language>.csv, three
// fictional models (heron-3b, kestrel-7b, tern-13b) × five languages
// (english, hindi, bengali, tamil, telugu), each with the columns
//
//	id,question,answer,Domain,response
//
// and the same 24 general-knowledge questions (ids q01 to q24, four
// domains) in every file of a language, so models can be compared on
// shared questions. The text is written for this project; the responses
// are drawn by leaderboard/gen_responses.py from a fixed seed.
//
// leaderboard/generate_prompts.json holds the prompt templates of
// `evalbook generate`, one per language (GeneratePromptsName).
//
//go:embed leaderboard/*.csv leaderboard/README.md leaderboard/generate_prompts.json
var Leaderboard embed.FS

// GeneratePromptsName is the path inside Leaderboard of the per-language
// prompt templates that `evalbook generate` uses by default.
const GeneratePromptsName = "leaderboard/generate_prompts.json"
