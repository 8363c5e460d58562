package scenario_test

import (
	"context"
	"fmt"
	"testing"

	"crudbench/bench/scenario"
	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

// TestReferenceFromDataset checks that the reference computed from the
// dataset alone is the one read from a database seeded with it, for every
// read, at the default size and at a size where the lists are not cut by
// their page limits.
func TestReferenceFromDataset(t *testing.T) {
	for _, persons := range []int{seed.DefaultPersons, 7} {
		t.Run(fmt.Sprint(persons), func(t *testing.T) {
			ctx := context.Background()
			url := dbtest.Empty(t)
			if _, err := seed.Load(ctx, url, seed.Config{Persons: persons, ViewerPassword: "v", EditorPassword: "e"}); err != nil {
				t.Fatal(err)
			}
			fromStore, err := scenario.ReferenceFromStore(ctx, dbtest.Store(t, url, db.Options{MaxConns: 2}))
			if err != nil {
				t.Fatal(err)
			}
			fromDataset, err := scenario.ReferenceFromDataset(seed.Generate(persons))
			if err != nil {
				t.Fatal(err)
			}
			if fromDataset.Source != "dataset" {
				t.Errorf("Source %q, want dataset", fromDataset.Source)
			}
			for _, op := range []scenario.Op{scenario.OpReadOne, scenario.OpReadSmall, scenario.OpReadMany, scenario.OpReadSlim} {
				want, got := fromStore.Data[op], fromDataset.Data[op]
				if want == nil {
					t.Fatalf("%s: the store gave no reference", op)
				}
				if d := scenario.FirstDifference(string(op), want, got); d != "" {
					t.Errorf("the dataset's reference differs from the database's: %s", d)
				}
			}
		})
	}
}
