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
//go:embed leaderboard/*.csv leaderboard/README.md
var Leaderboard embed.FS
