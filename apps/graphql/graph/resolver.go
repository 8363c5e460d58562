// Package graph holds the GraphQL app's resolvers: the only code between the
// generated executor (package generated) and the data layer (crudbench/db).
// The resolver files follow the schema files; resolver.go is the one place
// for dependencies.
package graph

import (
	"crudbench/apps/internal/auth"
	"crudbench/db"
)

// Resolver is the root resolver: it carries what every resolver needs.
type Resolver struct {
	Store  *db.Store
	Tokens *auth.Tokens
}
