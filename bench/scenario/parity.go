package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"crudbench/db"
	"crudbench/db/seed"
)

// Reference is the data every app must return for each read, in the REST
// app's JSON shape, decoded and normalised (see normalize). A nil entry is
// not known: its parity check is skipped and says so.
type Reference struct {
	// Source names where the data came from: "database" or "rest app".
	Source string
	// Data maps OpReadOne to the person detail object, OpReadSmall and
	// OpReadMany to the list of items.
	Data map[Op]any
}

// ReferenceFromStore reads the reference through the data layer the apps
// share, with the same filters the scenarios send.
func ReferenceFromStore(ctx context.Context, store *db.Store) (*Reference, error) {
	person, err := store.FindPersonDetail(ctx, seed.ShowcaseID)
	if err != nil {
		return nil, fmt.Errorf("showcase person: %w", err)
	}
	vacancies, err := store.FindVacancies(ctx, db.VacancyFilter{Status: db.VacancyOpen, Limit: ReadSmallLimit})
	if err != nil {
		return nil, fmt.Errorf("open vacancies: %w", err)
	}
	persons, err := store.FindPersons(ctx, db.PersonFilter{Limit: ReadManyLimit})
	if err != nil {
		return nil, fmt.Errorf("persons: %w", err)
	}
	return referenceOf("database", person, vacancies.Vacancies, persons.Persons)
}

// referenceOf turns the three reads into a Reference the way an app's
// answer is read: JSON, decoded into generic values, normalised.
func referenceOf(source string, person db.PersonDetail, vacancies []db.Vacancy, persons []db.Person) (*Reference, error) {
	ref := &Reference{Source: source, Data: map[Op]any{}}
	for op, v := range map[Op]any{OpReadOne: person, OpReadSmall: vacancies, OpReadMany: persons} {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		var generic any
		if err := json.Unmarshal(b, &generic); err != nil {
			return nil, err
		}
		ref.Data[op] = normalize(generic, "")
	}
	return ref, nil
}

// enumKeys hold enum values: GraphQL writes them in upper case, the other
// apps in lower case.
var enumKeys = map[string]bool{"status": true, "kind": true, "employmentType": true}

// idKeys hold row ids: GraphQL's ID scalar is a string, JSON's a number.
var idKeys = map[string]bool{"id": true, "personId": true, "appointmentId": true, "filledBy": true}

// normalize makes JSON from the different apps comparable: enum values in
// lower case, ids as numbers, timestamps as instants in UTC. key is the
// member name v was found under.
func normalize(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e, key)
		}
		return out
	case string:
		if enumKeys[key] {
			return strings.ToLower(x)
		}
		if idKeys[key] {
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				return float64(n)
			}
		}
		if strings.Contains(x, "T") {
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return t.UTC().Format(time.RFC3339Nano)
			}
		}
		return x
	}
	return v
}

// firstDifference describes where got differs from want, or returns "".
func firstDifference(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %s, want an object", path, describe(got))
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				return fmt.Sprintf("%s.%s: missing", path, k)
			case !inW:
				return fmt.Sprintf("%s.%s: unexpected field", path, k)
			}
			if d := firstDifference(path+"."+k, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s: got %s, want a list", path, describe(got))
		}
		if len(g) != len(w) {
			return fmt.Sprintf("%s: %d items, want %d", path, len(g), len(w))
		}
		for i := range w {
			if d := firstDifference(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: got %s, want %s", path, describe(got), describe(want))
	}
	return ""
}

func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
