// Package cpuprof takes a CPU profile of a running Go app over its pprof
// endpoint (Fetch), or of a Node.js app from V8's profiler converted to
// pprof's format (FetchV8, FromV8), and says where the CPU went (Analyze):
// shares of a few
// named layers (HTTP and router, encoding, database driver, the app's code,
// runtime, other) and the ten functions that spent the most.
//
// A sample's layer is decided by its stack: the first frame from the leaf
// that is not the runtime or the general-purpose standard library names
// it, so the time a layer spends in shared helpers (copying, allocating,
// system calls) is that layer's. The rules and their two judgement calls,
// the apps' shared middleware and logging, are documented at layerRules;
// a Node app's, by the scripts of its functions, at nodeLayers.
package cpuprof
