package results

// Meaning says in words what the rows of a bucket of a are, naming the
// two metrics: the text renderers show beside the bucket's count.
func (a *Agreement) Meaning(bucket string) string {
	switch bucket {
	case "only_first":
		return "only " + a.First + " passes" + bucketHint(a.First, a.Second, true)
	case "only_second":
		return "only " + a.Second + " passes" + bucketHint(a.First, a.Second, false)
	}
	for _, b := range Buckets {
		if b.Name == bucket {
			return b.Meaning
		}
	}
	return ""
}

// Count returns the number of rows in a bucket of a (0 for an unknown name).
func (a *Agreement) Count(bucket string) int {
	switch bucket {
	case "both":
		return a.Both
	case "neither":
		return a.Neither
	case "only_first":
		return a.OnlyFirst
	case "only_second":
		return a.OnlySecond
	}
	return 0
}

// Total returns the number of rows a compares.
func (a *Agreement) Total() int { return a.Both + a.Neither + a.OnlyFirst + a.OnlySecond }
