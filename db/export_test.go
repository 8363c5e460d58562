package db

// Exported for the external tests only.
var (
	Translate        = translate
	ConstraintFields = constraintFields
)
