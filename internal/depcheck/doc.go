// Package depcheck holds no code: its test, deps_test.go, states the
// dependency rules of DESIGN.md ("Which way dependencies point") as data and
// fails when a package of the module imports something the rules do not
// allow, in the spirit of the Go tree's go/build/deps_test.go.
//
// When you add a package under pkg/, add it to the table in deps_test.go
// (and to DESIGN.md's map in the same change); the test fails until you do.
package depcheck
