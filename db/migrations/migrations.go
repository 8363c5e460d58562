// Package migrations embeds the goose SQL migrations of the crudbench schema.
package migrations

import "embed"

// FS holds the numbered goose migrations (00001_schema.sql, …).
//
//go:embed *.sql
var FS embed.FS
