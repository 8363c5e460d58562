package main

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// operationLimits refuses a validated operation that nests deeper than
// maxDepth or whose estimated cost is over maxComplexity. It computes both
// figures of a fragment once, however often it is spread, so that its work
// is linear in the document's size (gqlgen's extension.ComplexityLimit
// walks a fragment again at every spread, exponential work for fragments
// that spread the previous one twice). The cost is gqlgen's estimate,
// field for field, with the weights of complexity().
type operationLimits struct {
	es graphql.ExecutableSchema
}

// ExtensionName implements graphql.HandlerExtension.
func (*operationLimits) ExtensionName() string { return "OperationLimits" }

// Validate implements graphql.HandlerExtension.
func (l *operationLimits) Validate(es graphql.ExecutableSchema) error {
	l.es = es
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (l *operationLimits) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	depth, cost, err := measure(ctx, l.es, opCtx.Operation, opCtx.Variables)
	switch {
	case err != nil:
		return err
	case depth > maxDepth:
		return gqlError(codeDepthLimit, fmt.Sprintf("the query nests too deeply: %d levels, the limit is %d", depth, maxDepth))
	case cost > maxComplexity:
		return gqlError(codeComplexityLimit, fmt.Sprintf("the query is too complex: it costs %d, the limit is %d", cost, maxComplexity))
	}
	return nil
}

// measure returns the depth and the cost of a validated operation, or the
// refusal of a request whose deadline passed while they were computed.
func measure(ctx context.Context, es graphql.ExecutableSchema, op *ast.OperationDefinition, vars map[string]any) (depth, cost int, refusal *gqlerror.Error) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(errStop); !ok {
				panic(v)
			}
			refusal = pastDeadline()
		}
	}()
	w := operationWalker{
		deadline:   deadline{ctx: ctx},
		es:         es,
		schema:     es.Schema(),
		vars:       vars,
		depths:     map[string]int{},
		complexity: map[string]int{},
	}
	return w.depth(op.SelectionSet), w.cost(op.SelectionSet), nil
}

// operationWalker computes an operation's depth and cost, a fragment's
// once. The validator has refused fragment cycles and unknown fragments.
type operationWalker struct {
	deadline
	es                 graphql.ExecutableSchema
	schema             *ast.Schema
	vars               map[string]any
	depths, complexity map[string]int // by fragment name
}

// depth returns how deeply set nests, counting a field as one level and
// fragments as none. Introspection (__schema, __type) is left out: the
// validator bounds it already (MaxIntrospectionDepth), and GraphiQL's
// introspection query nests deeply by design.
func (w *operationWalker) depth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		if w.tick() {
			panic(errStop{})
		}
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				continue
			}
			d = 1 + w.depth(s.SelectionSet)
		case *ast.InlineFragment:
			d = w.depth(s.SelectionSet)
		case *ast.FragmentSpread:
			var ok bool
			if d, ok = w.depths[s.Name]; !ok {
				d = w.depth(s.Definition.SelectionSet)
				w.depths[s.Name] = d
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// cost returns gqlgen's complexity estimate of set (complexity.Calculate,
// without options): a field costs what the schema's complexity function
// says or 1 plus its children, fields of type __Schema cost nothing, a
// field of an interface costs what its most expensive implementation does,
// and sums saturate instead of overflowing.
func (w *operationWalker) cost(set ast.SelectionSet) int {
	total := 0
	for _, sel := range set {
		if w.tick() {
			panic(errStop{})
		}
		switch s := sel.(type) {
		case *ast.Field:
			typ := w.schema.Types[s.Definition.Type.Name()]
			if typ.Name == "__Schema" {
				continue
			}
			child := 0
			switch typ.Kind {
			case ast.Object, ast.Interface, ast.Union:
				child = w.cost(s.SelectionSet)
			}
			args := s.ArgumentMap(w.vars)
			var c int
			if s.ObjectDefinition.Kind == ast.Interface {
				for _, t := range w.schema.GetPossibleTypes(s.ObjectDefinition) {
					c = max(c, w.fieldCost(t, typ.Kind, s.Name, child, args))
				}
			} else {
				c = w.fieldCost(s.ObjectDefinition, typ.Kind, s.Name, child, args)
			}
			total = saturatingAdd(total, c)
		case *ast.InlineFragment:
			total = saturatingAdd(total, w.cost(s.SelectionSet))
		case *ast.FragmentSpread:
			c, ok := w.complexity[s.Name]
			if !ok {
				c = w.cost(s.Definition.SelectionSet)
				w.complexity[s.Name] = c
			}
			total = saturatingAdd(total, c)
		}
	}
	return total
}

// fieldCost is the cost of one field of def whose children cost child.
func (w *operationWalker) fieldCost(def *ast.Definition, kind ast.DefinitionKind, field string, child int, args map[string]any) int {
	if c, ok := w.es.Complexity(w.ctx, def.Name, field, child, args); ok && c >= 1 {
		return c
	}
	return saturatingAdd(1, child)
}
