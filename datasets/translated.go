package datasets

import _ "embed" // for the go:embed directive below

// TranslatedHindiName is the path of TranslatedHindi inside this
// directory, for messages.
const TranslatedHindiName = "translated/hi.csv"

// TranslatedHindi is a small translated benchmark for notebook 08's
// section on the validity of translated test sets: 20 general-knowledge
// questions written in English and translated into Hindi, each with one
// answer of a fictional model (kestrel-7b), as a CSV file (UTF-8 in NFC,
// no BOM, LF line ends) with the header
//
//	id,source_question,source_answer,question,answer,Domain,response,language,model
//
// source_question and source_answer are the English originals; question
// and answer the Hindi translation that is scored. Some translations are
// faulty on purpose (the notebook's exercise is to find them); which ones,
// and why, is in the notebook's worked answer, not in the file. All text
// is written for this project.
//
//go:embed translated/hi.csv
var TranslatedHindi []byte
