package main

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// templatesHash is the prompt hash of generate's templates: the first 12
// hex digits of SHA-256 over the template file's bytes (the built-in
// file when path is empty), as DESIGN.md's hashes are.
func templatesHash(path string) (string, error) {
	var data []byte
	var err error
	if path == "" {
		data, err = datasets.Leaderboard.ReadFile(datasets.GeneratePromptsName)
	} else {
		data, err = tabular.ReadFile(path, 0)
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:12], nil
}
