package main

import "testing"

// TestJudgeGlueMessages pins the whole stderr of the usage errors that
// report words from the library's sentinels (llm.ErrNoModel, ErrConcurrency,
// ErrLimits, ErrSeed, ErrNoCacheDir; judge.ErrNoFake, ErrSpec, ErrPromptKind): the texts
// are those of evalbook before the glue moved into pkg/llm and pkg/judge,
// byte for byte.
func TestJudgeGlueMessages(t *testing.T) {
	const ep = "http://127.0.0.1:9/v1" // nothing is sent: every case stops first
	const sample = "evalbook: no --responses given: judging the built-in sample responses.csv\n"
	const pairs = "evalbook: no --pairs given: calibrate uses the built-in datasets/judge/pairs.jsonl\n"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"judge", "--endpoint", ep}, sample + "evalbook: judge: --model is required with an endpoint\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--concurrency", "0"}, sample + "evalbook: judge: --concurrency must be at least 1\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--rpm", "-1"}, sample + "evalbook: judge: --rpm and --retries must not be negative, --timeout must be positive\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--retries", "-1"}, sample + "evalbook: judge: --rpm and --retries must not be negative, --timeout must be positive\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--timeout", "0s"}, sample + "evalbook: judge: --rpm and --retries must not be negative, --timeout must be positive\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--model-seed", "x"}, sample + "evalbook: judge: --model-seed must be an integer, not \"x\"\n"},
		{[]string{"judge", "--endpoint", "ftp://u:pw@host/", "--model", "m", "--cache", "none"}, sample + "evalbook: judge: endpoint \"ftp://xxxxx:xxxxx@host/\": want an http or https base URL such as http://127.0.0.1:8000/v1\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--prompt", "pairwise@1"}, "evalbook: judge: --prompt pairwise@1 is a pairwise prompt; this command needs a reference prompt\n"},
		{[]string{"judge", "--endpoint", ep, "--model", "m", "--prompt", "reference@9"}, "evalbook: judge: --prompt: no prompt reference@9 (have pairwise@1 (13b61bb7fb), pairwise@2 (2650df9a76), reference@1 (fbd08530f1))\n"},
		{[]string{"calibrate", "--judge", "fake:lenient"}, pairs + "evalbook: calibrate: --judge: no fake judge \"lenient\" (want one of clean, position, verbosity, self, mixed)\n"},
		{[]string{"calibrate", "--judge", "gpt-4o"}, pairs + "evalbook: calibrate: --judge must be fake:NAME or an endpoint URL such as http://127.0.0.1:8000/v1, not \"gpt-4o\"\n"},
		{[]string{"calibrate", "--judge", "fake:clean", "--prompt", "reference"}, "evalbook: calibrate: --prompt reference@1 is a reference prompt; this command needs a pairwise prompt\n"},
		{[]string{"calibrate", "--judge", ep, "--model", "m", "--concurrency", "0"}, pairs + "evalbook: calibrate: --concurrency must be at least 1\n"},
		{[]string{"probes", "--judge", "fake:nope"}, "evalbook: no --pairs given: probes uses the built-in datasets/judge/pairs.jsonl\nevalbook: probes: --judge: no fake judge \"nope\" (want one of clean, position, verbosity, self, mixed)\n"},
	}
	for _, tt := range tests {
		_, errOut, code := runCLI(t, tt.args...)
		if code != 2 || errOut != tt.want {
			t.Errorf("%q: exit %d, stderr\n%q\nwant exit 2 and\n%q", tt.args, code, errOut, tt.want)
		}
	}
	// llm.ErrNoCacheDir: with neither variable set there is no default cache.
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	_, errOut, code := runCLI(t, "calibrate", "--judge", ep, "--model", "m")
	if want := pairs + "evalbook: calibrate: no user cache directory (neither $XDG_CACHE_HOME nor $HOME are defined); pass --cache FILE or --cache none\n"; code != 1 || errOut != want {
		t.Errorf("no cache directory: exit %d, stderr\n%q\nwant exit 1 and\n%q", code, errOut, want)
	}
}
