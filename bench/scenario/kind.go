package scenario

import (
	"fmt"
	"strings"
)

// Kind is a contract an app meets: the requests it answers and how its
// answers are checked (docs/contract.md). Many apps may share a kind: the
// built-in default, its tuned variants, a team's own candidate.
type Kind string

// The kinds of contract.
const (
	KindREST    Kind = "rest"    // JSON over resource URLs, a bearer token
	KindGraphQL Kind = "graphql" // POST /graphql documents, a bearer token
	KindSite    Kind = "site"    // server-rendered pages and forms, a session cookie
)

// Kinds lists every kind in report order.
var Kinds = []Kind{KindREST, KindGraphQL, KindSite}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return "", fmt.Errorf("unknown kind %q (known: %s)", s, strings.Join(names, ", "))
}

// dialectOf returns how apps of kind k are spoken to.
func dialectOf(k Kind) dialect {
	switch k {
	case KindREST:
		return restDialect{}
	case KindGraphQL:
		return graphqlDialect{}
	case KindSite:
		return siteDialect{}
	}
	return nil
}
