package main

import (
	"context"
	"fmt"
	"math"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// A document of fragments that each spread the previous one twice is small
// to send and exponential to walk naively, and gqlparser's validator does
// quadratic work on a selection set that repeats one field many times. So a
// document is counted before it is validated (documentLimits), and every
// walk over it computes a fragment's figures once and reuses them: the cost
// of refusing a document is linear in its size, whatever its shape, and the
// validator only ever sees documents whose size after expansion is bounded.

// checkEvery is how many steps an analysis takes between two looks at the
// request's deadline: often enough to stop within microseconds, rarely
// enough to cost nothing.
const checkEvery = 1024

// pastDeadline answers an analysis the request's deadline stopped (or whose
// client left); the transport answers it with 503 like any other outage.
func pastDeadline() *gqlerror.Error {
	return gqlError(codeUnavailable, "the request's deadline passed while its query was being checked; try again")
}

// deadline looks at ctx every checkEvery calls of tick.
type deadline struct {
	ctx   context.Context
	steps int
}

// tick counts one step and reports whether the analysis must stop; the
// first step looks, so that a request already past its deadline does no work.
func (d *deadline) tick() bool {
	d.steps++
	return d.steps%checkEvery == 1 && d.ctx.Err() != nil
}

// errStop unwinds an analysis stopped by its deadline: a panic, recovered
// by checkDocument and measure, so that the recursive walks need no error
// path for it.
type errStop struct{}

// documentLimits refuses, before gqlparser validates it, a document that
// asks for more than the limits allow. A document found in the query cache
// passed these checks when it was first seen and is not looked at again;
// any other is parsed here (gqlgen parses it again: parsing is linear and
// only a document not seen before pays twice).
type documentLimits struct {
	cache graphql.Cache[*ast.QueryDocument]
}

// ExtensionName implements graphql.HandlerExtension.
func (documentLimits) ExtensionName() string { return "DocumentLimits" }

// Validate implements graphql.HandlerExtension.
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters implements graphql.OperationParameterMutator.
func (l documentLimits) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if _, ok := l.cache.Get(ctx, p.Query); ok {
		return nil
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, maxQueryTokens)
	if err != nil {
		return nil // gqlgen parses it again and answers the parse error
	}
	return checkDocument(ctx, doc)
}

// checkDocument refuses a parsed, not yet validated document that breaks
// one of the document limits, in time linear in its size. Fragments may
// still be undefined (they count as empty; the validator refuses them) or
// spread one another in a cycle (refused here, as the validator would).
func checkDocument(ctx context.Context, doc *ast.QueryDocument) (refusal *gqlerror.Error) {
	if len(doc.Operations) > maxOperations {
		return gqlError(codeOperationLimit, fmt.Sprintf("the document has %d operations, the limit is %d", len(doc.Operations), maxOperations))
	}
	if len(doc.Fragments) > maxFragments {
		return gqlError(codeFragmentLimit, fmt.Sprintf("the document has %d fragments, the limit is %d", len(doc.Fragments), maxFragments))
	}
	c := documentCounter{
		deadline:  deadline{ctx: ctx},
		fragments: make(map[string]*ast.FragmentDefinition, len(doc.Fragments)),
		expanded:  make(map[string]int, len(doc.Fragments)),
	}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(errStop); !ok {
				panic(v)
			}
			refusal = pastDeadline()
		}
	}()
	for _, f := range doc.Fragments {
		// The first of duplicate names, as the validator has it.
		if _, ok := c.fragments[f.Name]; !ok {
			c.fragments[f.Name] = f
		}
	}
	for _, op := range doc.Operations {
		if err := c.text(op.Directives, op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if err := c.text(f.Directives, f.SelectionSet); err != nil {
			return err
		}
	}

	// Selections after expansion: every operation's, and the unused
	// fragments', which the validator walks too (then refuses).
	var roots []ast.SelectionSet
	total := 0
	for _, op := range doc.Operations {
		n, err := c.expand(op.SelectionSet)
		if err != nil {
			return err
		}
		total = saturatingAdd(total, n)
		roots = append(roots, op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		if _, used := c.expanded[f.Name]; used {
			continue
		}
		n, err := c.fragment(f.Name)
		if err != nil {
			return err
		}
		total = saturatingAdd(total, n)
		roots = append(roots, f.SelectionSet)
	}
	if total > maxSelections {
		return gqlError(codeSelectionLimit, fmt.Sprintf("the document selects too many fields: more than %d after expanding its fragments", maxSelections))
	}

	// Now that expanding it costs at most maxSelections steps, each field
	// the response would merge into one is counted.
	for _, set := range roots {
		if err := c.merged([]ast.SelectionSet{set}); err != nil {
			return err
		}
	}
	return nil
}

// documentCounter holds the figures of one document's analysis.
type documentCounter struct {
	deadline
	fragments map[string]*ast.FragmentDefinition
	// expanded is the number of selections a fragment expands to, counted
	// once; inProgress marks one being counted, to find cycles.
	expanded         map[string]int
	aliases, spreads int
}

// inProgress marks a fragment whose expansion is being counted.
const inProgress = -1

// text counts what the document says in so many words: aliases, spreads
// and the directives at each place, without following spreads.
func (c *documentCounter) text(dirs ast.DirectiveList, set ast.SelectionSet) *gqlerror.Error {
	if len(dirs) > maxDirectives {
		return tooManyDirectives(len(dirs))
	}
	for _, sel := range set {
		if c.tick() {
			panic(errStop{})
		}
		switch s := sel.(type) {
		case *ast.Field:
			if s.Alias != "" && s.Alias != s.Name {
				c.aliases++
				if c.aliases > maxAliases {
					return gqlError(codeAliasLimit, fmt.Sprintf("the document has more than %d aliases", maxAliases))
				}
			}
			if err := c.text(s.Directives, s.SelectionSet); err != nil {
				return err
			}
		case *ast.InlineFragment:
			if err := c.text(s.Directives, s.SelectionSet); err != nil {
				return err
			}
		case *ast.FragmentSpread:
			c.spreads++
			if c.spreads > maxSpreads {
				return gqlError(codeSpreadLimit, fmt.Sprintf("the document has more than %d fragment spreads", maxSpreads))
			}
			if len(s.Directives) > maxDirectives {
				return tooManyDirectives(len(s.Directives))
			}
		}
	}
	return nil
}

// tooManyDirectives is the refusal of n directives at one place.
func tooManyDirectives(n int) *gqlerror.Error {
	return gqlError(codeDirectiveLimit, fmt.Sprintf("%d directives at one place, the limit is %d", n, maxDirectives))
}

// expand returns the number of selections set expands to (fields, inline
// fragments and spreads, each fragment's as often as it is spread),
// counting each fragment once.
func (c *documentCounter) expand(set ast.SelectionSet) (int, *gqlerror.Error) {
	n := 0
	for _, sel := range set {
		if c.tick() {
			panic(errStop{})
		}
		var child int
		var err *gqlerror.Error
		switch s := sel.(type) {
		case *ast.Field:
			child, err = c.expand(s.SelectionSet)
		case *ast.InlineFragment:
			child, err = c.expand(s.SelectionSet)
		case *ast.FragmentSpread:
			child, err = c.fragment(s.Name)
		}
		if err != nil {
			return 0, err
		}
		n = saturatingAdd(n, saturatingAdd(1, child))
	}
	return n, nil
}

// fragment returns the number of selections the fragment name expands to.
func (c *documentCounter) fragment(name string) (int, *gqlerror.Error) {
	if n, ok := c.expanded[name]; ok {
		if n == inProgress {
			err := gqlError(errcode.ValidationFailed, fmt.Sprintf("Cannot spread fragment %q within itself.", name))
			return 0, err
		}
		return n, nil
	}
	f := c.fragments[name]
	if f == nil {
		return 0, nil // the validator refuses an unknown fragment
	}
	c.expanded[name] = inProgress
	n, err := c.expand(f.SelectionSet)
	if err != nil {
		return 0, err
	}
	c.expanded[name] = n
	return n, nil
}

// merged refuses a response name that the sets, which the response merges
// into one object, select more than maxRepeats times (gqlparser compares
// every two of them), and goes on with the fields each response name
// merges. It expands fragments, so it runs only once their expanded size
// is known to be bounded.
func (c *documentCounter) merged(sets []ast.SelectionSet) *gqlerror.Error {
	byName := map[string][]ast.SelectionSet{}
	var order []string
	count := map[string]int{}
	var collect func(set ast.SelectionSet)
	collect = func(set ast.SelectionSet) {
		for _, sel := range set {
			if c.tick() {
				panic(errStop{})
			}
			switch s := sel.(type) {
			case *ast.Field:
				name := s.Alias
				if name == "" {
					name = s.Name
				}
				if count[name] == 0 {
					order = append(order, name)
				}
				count[name]++
				if len(s.SelectionSet) > 0 {
					byName[name] = append(byName[name], s.SelectionSet)
				}
			case *ast.InlineFragment:
				collect(s.SelectionSet)
			case *ast.FragmentSpread:
				if f := c.fragments[s.Name]; f != nil {
					collect(f.SelectionSet)
				}
			}
		}
	}
	for _, set := range sets {
		collect(set)
	}
	for _, name := range order {
		if count[name] > maxRepeats {
			return gqlError(codeRepeatLimit, fmt.Sprintf("%q is selected %d times in one place, the limit is %d", name, count[name], maxRepeats))
		}
	}
	for _, name := range order {
		if children := byName[name]; len(children) > 0 {
			if err := c.merged(children); err != nil {
				return err
			}
		}
	}
	return nil
}

// saturatingAdd adds two non-negative counts, stopping at math.MaxInt.
func saturatingAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
