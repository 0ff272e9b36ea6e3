// Package datasets holds the sample data shipped with evalbook, embedded in
// the binary so that every command has something to run on with no files.
//
// Each family of files has its own Go file here declaring its embed.FS or
// bytes, so that adding sample data never edits another family's file.
package datasets
