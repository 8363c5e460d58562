package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/db/seed"
)

// The showcase person over GraphQL, every field asked for, is the data
// layer's PersonDetail (what the REST app returns) once GraphQL's spellings
// are undone: IDs are strings and enums upper case.
func TestShowcaseParityWithStore(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")

	resp := app.post(t, token, loadQuery(t, "showcase"), map[string]any{"id": strconv.Itoa(seed.ShowcaseID)})
	var got struct{ Person any }
	resp.decode(t, &got)

	detail, err := app.Store.FindPersonDetail(context.Background(), seed.ShowcaseID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(detail)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, normalise(got.Person)); diff != "" {
		t.Errorf("GraphQL differs from the store's PersonDetail (-store +graphql):\n%s", diff)
	}
}

// normalise rewrites a GraphQL result the way the bench compares it with
// REST: ID fields become numbers, enum values lower case.
func normalise(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch s, isString := e.(string); {
			case isString && (k == "id" || strings.HasSuffix(k, "Id") || k == "filledBy"):
				n, err := strconv.ParseFloat(s, 64)
				if err == nil {
					v[k] = n
				}
			case isString && (k == "status" || k == "kind" || k == "employmentType"):
				v[k] = strings.ToLower(s)
			default:
				v[k] = normalise(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = normalise(e)
		}
	}
	return v
}
