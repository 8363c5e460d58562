// Package scenario says what the bench asks of each app: the scenarios and
// their rates per profile, the requests every app receives for them (each
// in its own idiom: JSON, GraphQL, HTML forms, gRPC, tRPC), the workload
// of one run, and the checks that prove an app answers correctly before
// it is measured.
//
// One file per concern, so each can be read alone:
//
//   - rates: profiles.go (scenario and profile names, rates, the mix);
//   - what is asked: ops.go (operations, the data a write sets, read
//     addresses and page sizes);
//   - how each kind is spoken to: kind.go (the dialect every kind
//     implements), rest.go, graphql.go, site.go, grpc.go, trpc.go;
//   - sending: client.go (an app, a logged-in session, one request outside
//     a load), request.go (naming a request, checking an answer's status
//     and media type);
//   - one run's stream of requests: workload.go;
//   - validation before any load: validate.go, page.go (the site's pages),
//     parity.go (the reference data every app must return).
package scenario
