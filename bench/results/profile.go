package results

// Layers of a CPU profile, in the order the report stacks them.
const (
	LayerHTTP     = "http"     // net/http server, router, middleware of the standard library and chi
	LayerEncoding = "encoding" // encoding/json, html/template, templ and its compiled components, gqlgen's executor and marshalling, gqlparser
	LayerDriver   = "driver"   // pgx, pgconn, pgproto3, puddle (the pool)
	LayerApp      = "app"      // the app's own code and the shared crudbench packages
	LayerRuntime  = "runtime"  // scheduler, garbage collector and what only the runtime called
	LayerOther    = "other"    // anything else (crypto, logging, other libraries)
)

// Layers lists the layer names in order.
var Layers = []string{LayerHTTP, LayerEncoding, LayerDriver, LayerApp, LayerRuntime, LayerOther}

// CPUProfile summarizes one CPU profile of an app.
type CPUProfile struct {
	// File is the profile (pprof's gzipped protobuf, go tool pprof reads
	// it), relative to the results folder.
	File string `json:"file"`
	// Seconds is the time profiled; CPUSeconds the CPU time its samples add up to.
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpuSeconds"`
	// Layers holds each layer's share of CPUSeconds, in the order of
	// Layers; the shares add up to 1 (all 0 when no sample was taken).
	Layers []LayerShare `json:"layers"`
	// Top is the ten functions with the most CPU of their own.
	Top []FunctionShare `json:"top"`
}

// LayerShare is a layer's share of a profile's CPU (0..1).
type LayerShare struct {
	Layer string  `json:"layer"`
	Share float64 `json:"share"`
}

// FunctionShare is a function's own (flat) and inclusive (cum) share of a
// profile's CPU (0..1).
type FunctionShare struct {
	Name string  `json:"name"`
	Flat float64 `json:"flat"`
	Cum  float64 `json:"cum"`
}
