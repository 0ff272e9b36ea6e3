package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/internal/cli"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/judge"
)

// The recording of judge and generate runs (internal/cli.RecordFlags).
var addRecordFlag = cli.AddRecordFlag

func recordJudge(e *cli.Env, r *cli.RecordFlags, res *judge.RunSummary, tbl *judge.Responses) error {
	return r.Judge(e, res, tbl)
}

func recordGenerate(e *cli.Env, r *cli.RecordFlags, res *generate.Result, promptHash string) error {
	return r.Generate(e, res, promptHash)
}

// templatesHash is the prompt hash of generate's templates: the first 12
// hex digits of SHA-256 over the template file's bytes (the built-in
// file when path is empty), as DESIGN.md's hashes are.
func templatesHash(path string) (string, error) {
	var data []byte
	var err error
	if path == "" {
		data, err = datasets.Leaderboard.ReadFile(datasets.GeneratePromptsName)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:12], nil
}
