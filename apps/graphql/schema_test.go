package main

import (
	"slices"
	"strings"
	"testing"

	"crudbench/apps/graphql/graph/generated"
	"crudbench/apps/graphql/graph/scalar"
)

// Every field of Query and Mutation carries @auth or @editor, every
// mutation @editor, except login: a new field cannot be left open by
// mistake.
func TestEveryRootFieldIsGuarded(t *testing.T) {
	t.Parallel()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, root := range []string{"Query", "Mutation"} {
		for _, f := range schema.Types[root].Fields {
			// Introspection stays open (GraphiQL reads the schema before
			// anyone logs in); GRAPHQL_INTROSPECTION=false closes it.
			if root == "Mutation" && f.Name == "login" || strings.HasPrefix(f.Name, "__") {
				continue
			}
			auth, editor := f.Directives.ForName("auth") != nil, f.Directives.ForName("editor") != nil
			if root == "Mutation" && !editor || root == "Query" && !auth && !editor {
				t.Errorf("%s.%s has no guard directive (auth %v, editor %v)", root, f.Name, auth, editor)
			}
		}
	}
}

// The schema's enums list exactly the data layer's values in upper case,
// which is how the scalar package reads and writes them.
func TestEnumsMatchDataLayer(t *testing.T) {
	t.Parallel()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for name, want := range scalar.EnumValues() {
		var got []string
		for _, v := range schema.Types[name].EnumValues {
			got = append(got, v.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("enum %s: schema %v, data layer %v", name, got, want)
		}
	}
}
