package scenario

import (
	"fmt"
	"net/http"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
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
	KindGRPC    Kind = "grpc"    // unary calls of crudbench.v1.Staff, a bearer token in metadata
	KindTRPC    Kind = "trpc"    // tRPC procedures over HTTP (GET queries, POST mutations), a bearer token
	KindAMQP    Kind = "amqp"    // REST's operations as request/reply messages over AMQP 0-9-1, a bearer token in a header
)

// Kinds lists every kind in report order.
var Kinds = []Kind{KindREST, KindGraphQL, KindSite, KindGRPC, KindTRPC, KindAMQP}

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

// dialect is one app's way of saying the bench's operations: its addresses,
// bodies and answers.
type dialect interface {
	// login is the request that logs user in, and session reads from its
	// answer the header that authenticates later requests.
	login(base, user, password string) vegeta.Target
	session(r *vegeta.Result) (http.Header, error)
	read(base string, op Op) vegeta.Target
	create(base string, v VacancyData) vegeta.Target
	update(base string, id int64, version int32, v VacancyData) vegeta.Target
	delete(base string, id int64) vegeta.Target
	// check says whether a response is the right kind of answer to op:
	// status and media type, and for GraphQL no errors. It is cheap enough
	// to run on every response of a load.
	check(op Op, r *vegeta.Result) error
	// created reads the new row's id and version from a create's answer.
	// When the id was read but the answer is wrong otherwise, it returns
	// the id with the error, so that the row can still be removed.
	created(r *vegeta.Result) (id int64, version int32, err error)
	// readVacancy reads one vacancy back (validation only), and version
	// reads the vacancy's version from its answer; ok is false for a kind
	// whose answer need not show it.
	readVacancy(base string, id int64) vegeta.Target
	version(r *vegeta.Result) (version int32, ok bool, err error)
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
	case KindGRPC:
		return grpcDialect{}
	case KindTRPC:
		return trpcDialect{}
	case KindAMQP:
		return amqpDialect{}
	}
	return nil
}
