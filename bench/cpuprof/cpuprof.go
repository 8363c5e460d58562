// Package cpuprof takes a CPU profile of a running Go app over its pprof
// endpoint and says where the CPU went: shares of a few named layers (HTTP
// and router, encoding, database driver, the app's code, runtime) and the
// functions that spent the most.
//
// Fetch takes the profile (fetch.go), Analyze summarizes it (analyze.go)
// and the layer of each sample is decided by the rules in layer.go.
package cpuprof
