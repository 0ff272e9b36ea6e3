package main

// version is the evalbook release; set with -ldflags "-X main.version=..." when building a release.
var version = "0.1.0-dev"
