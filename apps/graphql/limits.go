package main

import (
	"context"
	"fmt"
	"math"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"crudbench/apps/graphql/graph/generated"
	"crudbench/db"
)

// Limits on what one request may ask for, so that no single query can tie up
// the server or the database. Each refusal is a GraphQL error with its own
// extensions.code, answered before anything runs.
const (
	// maxQueryBytes caps the query text; the bench's largest query has
	// about 600 bytes and GraphiQL's introspection query about 1.6 KiB.
	maxQueryBytes = 16 << 10
	// maxQueryTokens stops the parser early on a query of many tiny tokens.
	maxQueryTokens = 4000
	// maxDepth caps how deeply selections nest. Without back references
	// the deepest useful path has 7 levels
	// (vacancies.nodes.filledByPerson.appointments.stipends.payer.kind);
	// Appointment.person makes cycles, which this cuts.
	maxDepth = 10
	// maxComplexity caps the estimated work of a query: one point per
	// field, list fields multiplied by their page size (persons, vacancies)
	// or by the expected number of children (appointments, stipends,
	// fundings). The bench's heaviest query, every person with every field
	// (persons(first: 1000)), costs about 16,000.
	maxComplexity = 25_000
)

// Limits on the document itself, checked in one linear pass before it is
// validated, so that validating and analysing any document that passes them
// is cheap whatever its shape (see document.go). The bench's queries have
// one operation, no fragments, aliases or directives and at most 41
// selections; GraphiQL's introspection query has 3 fragments, 8 spreads
// and 236 selections after expansion.
const (
	// maxOperations caps the operations of a document: the validator
	// walks the fragments each of them reaches again. GraphiQL sends all
	// of its editor's operations and names the one to run.
	maxOperations = 20
	// maxFragments caps fragment definitions: some of the validator's
	// rules cost the square of their number.
	maxFragments = 50
	// maxSpreads caps the fragment spreads written in the document: the
	// validator compares every two spreads of one selection set.
	maxSpreads = 200
	// maxAliases caps aliases; fetching the same field under many names
	// is the usual way of multiplying a query's work.
	maxAliases = 200
	// maxDirectives caps the directives at one place (a field, a
	// fragment, an operation): @include and @skip are all a client needs.
	maxDirectives = 4
	// maxSelections caps the selections of a document after expanding its
	// fragments, counted without expanding them: 20 fragments that each
	// spread the previous one twice stand for a million fields. Once it
	// holds, expanding the document (to count repeats) is cheap.
	maxSelections = 2000
	// maxRepeats caps how often one response name (a field or an alias) is
	// selected into one object, fragments included: the validator compares
	// every two of them.
	maxRepeats = 10
)

// Expected list sizes for the complexity estimate: the seed gives a person
// about 3 appointments (the showcase 12) and an appointment about 3 stipends
// and 2 fundings; the weights err on the high side.
const (
	appointmentsPerPerson  = 10
	stipendsPerAppointment = 5
	fundingsPerAppointment = 5
)

// complexity returns the cost functions of the list fields; every other
// field costs 1 plus its children.
func complexity() generated.ComplexityRoot {
	var c generated.ComplexityRoot
	c.Query.Persons = func(child int, first *int32, _ *string, _ *string) int {
		return list(pageSizeEstimate(first), child)
	}
	c.Query.Vacancies = func(child int, _ *db.VacancyStatus, first *int32, _ *string) int {
		return list(pageSizeEstimate(first), child)
	}
	c.Person.Appointments = func(child int) int { return list(appointmentsPerPerson, child) }
	c.Appointment.Stipends = func(child int) int { return list(stipendsPerAppointment, child) }
	c.Appointment.Fundings = func(child int) int { return list(fundingsPerAppointment, child) }
	return c
}

// pageSizeEstimate is the page size a list argument asks for, clamped to the
// allowed range: an out-of-range value is refused by the resolver with a
// clearer message than a complexity error would give.
func pageSizeEstimate(first *int32) int {
	switch {
	case first == nil:
		return db.DefaultLimit
	case *first < 1:
		return 1
	case *first > db.MaxLimit:
		return db.MaxLimit
	}
	return int(*first)
}

// list is the cost of a list of n elements each costing child, saturating
// instead of overflowing.
func list(n, child int) int {
	if child > (math.MaxInt-1)/n {
		return math.MaxInt
	}
	return 1 + n*child
}

// querySizeLimit refuses query texts longer than max bytes before parsing.
type querySizeLimit struct{ max int }

// ExtensionName implements graphql.HandlerExtension.
func (querySizeLimit) ExtensionName() string { return "QuerySizeLimit" }

// Validate implements graphql.HandlerExtension.
func (querySizeLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters implements graphql.OperationParameterMutator.
func (l querySizeLimit) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if len(p.Query) <= l.max {
		return nil
	}
	return gqlError(codeQueryTooLarge, fmt.Sprintf("the query is too large: %d bytes, the limit is %d", len(p.Query), l.max))
}

// noIntrospection refuses operations that read the schema (__schema,
// __type) when introspection is switched off, with a clear error before
// anything runs; gqlgen itself would fail the field with an error that has
// no code. __typename stays allowed.
type noIntrospection struct{}

// ExtensionName implements graphql.HandlerExtension.
func (noIntrospection) ExtensionName() string { return "NoIntrospection" }

// Validate implements graphql.HandlerExtension.
func (noIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (noIntrospection) MutateOperationContext(_ context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if introspects(opCtx.Operation.SelectionSet) {
		return gqlError(codeIntrospectionDisabled, "introspection is switched off on this server")
	}
	return nil
}

// introspects reports whether a root selection set asks for __schema or
// __type, directly or through fragments; each fragment is looked at once.
func introspects(set ast.SelectionSet) bool {
	return introspectsOnce(set, map[string]bool{})
}

// introspectsOnce is introspects that skips the fragments in seen.
func introspectsOnce(set ast.SelectionSet, seen map[string]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if introspectsOnce(s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && !seen[s.Name] {
				seen[s.Name] = true
				if introspectsOnce(s.Definition.SelectionSet, seen) {
					return true
				}
			}
		}
	}
	return false
}
