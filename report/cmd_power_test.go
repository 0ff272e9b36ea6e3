package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// 0.8 against 0.9, power 0.8, two-sided alpha 0.05, unpaired: 199 per
// group, as R's power.prop.test(p1 = 0.8, p2 = 0.9, power = 0.8) (198.96).
func TestPowerCLISampleSize(t *testing.T) {
	out, errOut, code := runCLI(t, "power", "--baseline", "0.8", "--target", "0.9", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["n_per_group"] != 199.0 || got["mode"] != "sample_size" || got["paired"] != false {
		t.Errorf("JSON %v", got)
	}
	for _, k := range []string{"kind", "baseline", "target", "alpha", "power", "discordance", "p_better", "p_worse", "mde", "detectable_rate", "achieved_power", "warnings"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	text, _, code := runCLI(t, "power", "--baseline", "0.8", "--target", "0.9")
	if code != 0 || !strings.Contains(text, "199 cases per group") {
		t.Errorf("text (exit %d):\n%s", code, text)
	}
}

func TestPowerCLIMDEAndPaired(t *testing.T) {
	out, errOut, code := runCLI(t, "power", "--baseline", "0.8", "--n", "199", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Mode string   `json:"mode"`
		N    int      `json:"n_per_group"`
		MDE  *float64 `json:"mde"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// 199 cases detect 0.8 → 0.9 with power 0.8, so the MDE is just below 0.1.
	if got.Mode != "mde" || got.N != 199 || got.MDE == nil || !(*got.MDE > 0.099 && *got.MDE <= 0.1) {
		t.Errorf("mde JSON %s", out)
	}
	// Paired, discordance 0.15: Connor's formula gives 115.35 → 116 (see
	// stats.TestPlanPowerPaired).
	text, errOut, code := runCLI(t, "power", "--baseline", "0.8", "--target", "0.9", "--paired", "--discordant", "0.15")
	if code != 0 || !strings.Contains(text, "116 cases (each run by both versions)") {
		t.Errorf("paired (exit %d, %s):\n%s", code, errOut, text)
	}
}

func TestPowerCLIUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"power", "--baseline", "0.8", "--target", "0.8"},
		{"power", "--baseline", "1.5", "--target", "0.8"},
		{"power", "--baseline", "0.8", "--target", "x"},
		{"power", "--baseline", "abc", "--target", "0.5"},
		{"power", "--baseline", "NaN", "--target", "0.5"},
		{"power", "--baseline", "0.8"},
		{"power", "--target", "0.8"},
		{"power", "--baseline", "0.8", "--target", "0.9", "--power", "1"},
		{"power", "--baseline", "0.8", "--target", "0.9", "--alpha", "0"},
		{"power", "--baseline", "0.8", "--target", "0.9", "--discordant", "0.2"},
		{"power", "--baseline", "0.8", "--target", "0.9", "--paired", "--discordant", "0.05"},
		{"power", "--baseline", "0.8", "--n", "0"},
		{"power", "--baseline", "0.8", "--n", "-5"},
		{"power", "--baseline", "0.8", "--target", "0.9", "extra"},
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}
