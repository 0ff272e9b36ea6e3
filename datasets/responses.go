package datasets

import _ "embed" // for the go:embed directive below

// ResponsesName is the file name of the sample response set, for messages
// such as "scoring the built-in sample responses.csv".
const ResponsesName = "responses.csv"

// Responses is the sample multilingual QA response set: a CSV file (UTF-8,
// no BOM, LF line ends, RFC 4180 quoting) with the header
//
//	id,question,answer,Domain,response,language,model
//
// and 284 rows: 142 questions (63 English, 44 Hindi, 35 Bengali; seven
// Domain values) each answered by two fictional models, kestrel-7b (terse)
// and tern-13b (verbose). The id column is the question id, shared by both
// models' rows, so (id, model) is unique. Every behaviour of the seed
// scoring tables is present; Behaviours names the rows that show each one.
// All text is synthetic and written for this project; README.md in this
// directory describes the file.
//
//go:embed responses.csv
var Responses []byte
