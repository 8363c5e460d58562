package results

// StackFacts are the size and start-up cost of one app, from the source
// tree and the built binary.
type StackFacts struct {
	App string `json:"app"`
	// Own counts the files of the app's own packages (apps/<name>/...);
	// Shared those of the other crudbench packages its binary links (the
	// data layer and the apps' common packages).
	Own    Lines `json:"own"`
	Shared Lines `json:"shared"`
	// DirectModules are the modules outside crudbench whose packages the
	// crudbench packages import; TotalModules every module in the binary
	// (go version -m), crudbench itself excluded.
	DirectModules int   `json:"directModules"`
	TotalModules  int   `json:"totalModules"`
	BinaryBytes   int64 `json:"binaryBytes"`
	// StartMs is the time from starting the process to its first
	// successful /readyz; IdleRSSMB its VmRSS then, before any load.
	StartMs   float64 `json:"startMs"`
	IdleRSSMB float64 `json:"idleRSSMB"`
	// Problems name the facts that could not be measured (attach mode has
	// no binary and no start).
	Problems []string `json:"problems,omitempty"`
}

// Lines counts non-blank lines by kind.
type Lines struct {
	Go        int `json:"go"`        // hand-written Go, tests excluded
	Generated int `json:"generated"` // Go marked "Code generated ... DO NOT EDIT."
	Tests     int `json:"tests"`     // _test.go files
	// Other is schema, templates, SQL and the app's own static files
	// (vendored third-party assets such as htmx excluded).
	Other int `json:"other"`
}
