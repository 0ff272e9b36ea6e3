package judge

import "strings"

// block returns the text of the named block of a rendered prompt.
func block(prompt, title string) string {
	i := strings.Index(prompt, "<<<"+title+" ")
	if i < 0 {
		return ""
	}
	rest := prompt[i:]
	nl := strings.Index(rest, "\n")
	end := strings.Index(rest, "\n<<<END "+title+" ")
	if nl < 0 || end < nl {
		return ""
	}
	return rest[nl+1 : end]
}

// referenceAnswer is a toy model judge for reference prompts: correct when
// the response contains the golden answer, ignoring case.
func referenceAnswer(prompt string) string {
	g, r := block(prompt, "GOLDEN ANSWER"), block(prompt, "RESPONSE")
	if g != "" && strings.Contains(strings.ToLower(r), strings.ToLower(g)) {
		return `{"verdict": "correct", "reason": "contains the golden answer"}`
	}
	return `{"verdict": "incorrect", "reason": "different answer"}`
}
