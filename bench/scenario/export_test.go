package scenario

// Unexported helpers the external tests reach (the standard library's
// export_test.go pattern).
var (
	Normalize       = normalize
	FirstDifference = firstDifference
)
