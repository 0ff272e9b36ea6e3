package tasks

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseShard reads a shard "i/n" (0 <= i < n): a run of shard i of n
// takes the items whose index modulo n is i. "" is the whole run, 0/1.
func ParseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("shard %q: want i/n with 0 <= i < n, e.g. 0/4 to 3/4", s)
	}
	return i, n, nil
}

// headerDiff names the first field in which two details headers differ,
// as a JSON path of the header ("seed", "tasks[1].task_hash",
// "tasks": 2 vs 3 entries), with both values, short: what makes two
// files the shards of different runs. "" when they are equal.
func headerDiff(a, b Header) string {
	var va, vb any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	json.Unmarshal(ja, &va)
	json.Unmarshal(jb, &vb)
	return jsonDiff("", va, vb)
}

func jsonDiff(path string, a, b any) string {
	ma, oka := a.(map[string]any)
	mb, okb := b.(map[string]any)
	if oka && okb {
		keys := map[string]bool{}
		for k := range ma {
			keys[k] = true
		}
		for k := range mb {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if d := jsonDiff(p, ma[k], mb[k]); d != "" {
				return d
			}
		}
		return ""
	}
	la, oka := a.([]any)
	lb, okb := b.([]any)
	if oka && okb {
		if len(la) != len(lb) {
			return fmt.Sprintf("%s: %d vs %d entries", path, len(la), len(lb))
		}
		for i := range la {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), la[i], lb[i]); d != "" {
				return d
			}
		}
		return ""
	}
	sa, sb := shortJSON(a), shortJSON(b)
	if sa == sb {
		return ""
	}
	return fmt.Sprintf("%s: %s vs %s", path, sa, sb)
}

// shortJSON writes v as JSON, cut to 80 characters ("absent" for nil).
func shortJSON(v any) string {
	if v == nil {
		return "absent"
	}
	j, _ := json.Marshal(v)
	if utf8.RuneCount(j) > 80 {
		return string([]rune(string(j))[:79]) + "…"
	}
	return string(j)
}
