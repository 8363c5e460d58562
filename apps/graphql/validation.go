package main

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// validationRules are gqlparser's default rules with UniqueOperationNames
// as the GraphQL spec has it (Operation Name Uniqueness holds each named
// operation to one; an anonymous one is Lone Anonymous Operation's
// business). gqlparser's own counts "" as a name, so that a document of two
// anonymous operations got a third error, `There can be only one operation
// named ""`, beside the spec's two, where graphql-js, and so every Node
// GraphQL app, answers the two.
func validationRules() *rules.Rules {
	r := rules.NewDefaultRules()
	r.ReplaceRule(rules.UniqueOperationNamesRule.Name, uniqueOperationNames)
	return r
}

// uniqueOperationNames is UniqueOperationNamesRule skipping anonymous
// operations, with its message.
func uniqueOperationNames(observers *core.Events, addError core.AddErrFunc) {
	seen := map[string]bool{}
	observers.OnOperation(func(_ *core.Walker, op *ast.OperationDefinition) {
		if op.Name == "" {
			return
		}
		if seen[op.Name] {
			addError(core.Message(`There can be only one operation named "%s".`, op.Name), core.At(op.Position))
		}
		seen[op.Name] = true
	})
}
