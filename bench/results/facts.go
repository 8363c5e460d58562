package results

// StackFacts are the size and start-up cost of one app, from the source
// tree and what is deployed: a Go app's binary, a Node.js app's folder
// with its installed node_modules.
type StackFacts struct {
	App string `json:"app"`
	// Runtime is what runs the app ("Go", compiled into the binary, or
	// "Node.js"), RuntimeVersion its version (the Go that built the
	// binary, or node --version), without a leading "go" or "v".
	Runtime        string `json:"runtime,omitempty"`
	RuntimeVersion string `json:"runtimeVersion,omitempty"`
	// Frameworks are the versions of the libraries the apps are compared
	// on (HTTP and GraphQL servers, GraphQL library, templates, data
	// loader, PostgreSQL driver) that the app deploys, in that order.
	Frameworks []Framework `json:"frameworks,omitempty"`
	// Own counts the files of the app's own packages (apps/<name>/...);
	// Shared those of the other crudbench packages its binary links (the
	// data layer and the apps' common packages), or for a Node.js app its
	// local file: packages and the tree's files its code reads (the Go
	// apps' GraphQL schema and OpenAPI document).
	Own    Lines `json:"own"`
	Shared Lines `json:"shared"`
	// DirectModules are the modules outside crudbench whose packages the
	// crudbench packages import; TotalModules every module in the binary
	// (go version -m), crudbench itself excluded. For a Node.js app they
	// count npm packages: direct the dependencies of its package.json and
	// of its local packages', total the distinct packages its
	// package-lock.json installs for them (not for devDependencies).
	DirectModules int `json:"directModules"`
	TotalModules  int `json:"totalModules"`
	// BinaryBytes is a Go app's binary; DeployedBytes, for a Node.js app,
	// the files a deploy ships: node_modules as npm ci installs it plus
	// the sources and package files (a Go app ships its binary alone).
	BinaryBytes   int64 `json:"binaryBytes"`
	DeployedBytes int64 `json:"deployedBytes,omitempty"`
	// StartMs is the time from starting the process to its first
	// successful /readyz; IdleRSSMB its VmRSS then, before any load.
	StartMs   float64 `json:"startMs"`
	IdleRSSMB float64 `json:"idleRSSMB"`
	// Problems name the facts that could not be measured (attach mode has
	// no binary and no start).
	Problems []string `json:"problems,omitempty"`
}

// Framework is one library an app is built on, at the version it deploys.
type Framework struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Lines counts non-blank lines by kind.
type Lines struct {
	Go int `json:"go"` // hand-written Go, tests excluded
	// JS is hand-written JavaScript or TypeScript, tests excluded: a
	// Node.js app's counterpart of Go.
	JS        int `json:"js,omitempty"`
	Generated int `json:"generated"` // Go marked "Code generated ... DO NOT EDIT."
	Tests     int `json:"tests"`     // _test.go files; a Node.js app's test files
	// Other is schema, templates, SQL and the app's own static files
	// (vendored third-party assets such as htmx excluded).
	Other int `json:"other"`
}

// Code is the hand-written code, whatever its language.
func (l Lines) Code() int { return l.Go + l.JS }
