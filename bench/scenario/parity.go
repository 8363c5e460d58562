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
// kind's JSON shape, decoded and normalised (see normalize). A nil entry is
// not known: its parity check is skipped and says so.
type Reference struct {
	// Source names where the data came from: "database", "dataset" (the
	// seed, computed without a database) or "<name> app" (the first REST
	// answer, when neither is available).
	Source string
	// Data maps OpReadOne to the person detail object, OpReadSmall and
	// OpReadMany to the list of items, OpReadSlim to read-many's persons
	// with only their id, firstName and lastName (see slimPersons).
	Data map[Op]any
}

// learn records data, a valid answer to op in the REST kind's shape, as
// the reference of op when none is known, and read-many's persons also as
// read-slim's (projected), which is the same list.
func (ref *Reference) learn(op Op, data any) {
	if ref.Data == nil {
		ref.Data = map[Op]any{}
	}
	if _, known := ref.Data[op]; !known {
		ref.Data[op] = data
	}
	if _, known := ref.Data[OpReadSlim]; op == OpReadMany && !known {
		ref.Data[OpReadSlim] = slimPersons(data)
	}
}

// slimFields are what a read-slim client asks for of each person.
var slimFields = []string{"id", "firstName", "lastName"}

// slimPersons projects a normalised list of persons to slimFields: what a
// client that selects only those fields must get, value for value.
func slimPersons(persons any) any {
	items, ok := persons.([]any)
	if !ok {
		return persons
	}
	out := make([]any, len(items))
	for i, it := range items {
		m, _ := it.(map[string]any)
		slim := make(map[string]any, len(slimFields))
		for _, k := range slimFields {
			if v, ok := m[k]; ok {
				slim[k] = v
			}
		}
		out[i] = slim
	}
	return out
}

// referenceOp is the read whose reference an answer of kind to op is
// compared with: op itself, except that a REST, tRPC or AMQP client's
// read-slim is read-many's request (none takes a field selection), so its answer
// is the full list and is compared as read-many's.
func referenceOp(kind Kind, op Op) Op {
	if op == OpReadSlim && (kind == KindREST || kind == KindTRPC || kind == KindAMQP) {
		return OpReadMany
	}
	return op
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
		if ref.Data[op], err = normalize(KindREST, generic); err != nil {
			return nil, err
		}
	}
	ref.Data[OpReadSlim] = slimPersons(ref.Data[OpReadMany])
	return ref, nil
}

// enumKeys hold enum values: the GraphQL kind writes them in upper case
// (its schema's enums), the REST kind in lower case.
var enumKeys = map[string]bool{"status": true, "kind": true, "employmentType": true}

// idKeys hold row ids: the GraphQL kind's ID scalar is a string of digits,
// the REST kind's ids are JSON numbers.
var idKeys = map[string]bool{"id": true, "personId": true, "appointmentId": true, "filledBy": true}

// grpcEnumPrefixes are the prefixes of the gRPC kind's enum values, by the
// key that holds them: PERSON_STATUS_ON_LEAVE is REST's on_leave.
var grpcEnumPrefixes = map[string][]string{
	"status":         {"PERSON_STATUS_", "VACANCY_STATUS_"},
	"kind":           {"PAYER_KIND_"},
	"employmentType": {"EMPLOYMENT_TYPE_"},
}

// int64Keys hold the gRPC kind's int64 fields, which protojson writes as
// strings: the ids and the money in cents.
var int64Keys = map[string]bool{"id": true, "personId": true, "appointmentId": true, "filledBy": true,
	"amountCents": true, "salaryMinCents": true, "salaryMaxCents": true}

// timeKeys hold instants, compared in UTC whatever offset they are written
// with; dates are compared as the YYYY-MM-DD strings they must be.
var timeKeys = map[string]bool{"createdAt": true, "updatedAt": true}

// normalize makes the answers of the different kinds comparable with the
// reference, which is in the REST kind's shape: a GraphQL enum value is
// lowered and a GraphQL ID read as a number, a gRPC enum value loses its
// prefix and is lowered and a gRPC int64 read as a number, each only when
// it is written as that kind's contract says (an enum in upper case, an ID
// or int64 as a string of digits), so that an answer of the wrong type is
// an error rather than a match. The REST kind's values are left as they are, so a string id or
// an upper-case enum differs from the reference. Timestamps of every kind
// become instants in UTC.
func normalize(kind Kind, v any) (any, error) {
	return normalizeAt(kind, v, "", "")
}

func normalizeAt(kind Kind, v any, path, key string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, err := normalizeAt(kind, e, path+"."+k, k)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := normalizeAt(kind, e, fmt.Sprintf("%s[%d]", path, i), key)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case string:
		switch {
		case timeKeys[key]:
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return t.UTC().Format(time.RFC3339Nano), nil
			}
		case kind == KindGraphQL && enumKeys[key]:
			if x != strings.ToUpper(x) {
				return nil, fmt.Errorf("%s: %q: a GraphQL enum value is in upper case", path, x)
			}
			return strings.ToLower(x), nil
		case kind == KindGraphQL && idKeys[key]:
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: a GraphQL ID here is a string of digits", path, x)
			}
			return float64(n), nil
		case kind == KindGRPC && enumKeys[key]:
			for _, prefix := range grpcEnumPrefixes[key] {
				if v, ok := strings.CutPrefix(x, prefix); ok && v != "" && v == strings.ToUpper(v) {
					return strings.ToLower(v), nil
				}
			}
			return nil, fmt.Errorf("%s: %q: a gRPC enum value is its enum's prefix and the value in upper case", path, x)
		case kind == KindGRPC && int64Keys[key]:
			// protojson writes an int64 as a string of digits.
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: an int64 in protojson is a string of digits", path, x)
			}
			return float64(n), nil
		}
	case float64:
		if kind == KindGraphQL && idKeys[key] {
			return nil, fmt.Errorf("%s: %s: a GraphQL ID is written as a string", path, describe(x))
		}
		if kind == KindGRPC && int64Keys[key] {
			return nil, fmt.Errorf("%s: %s: protojson writes an int64 as a string", path, describe(x))
		}
	}
	return v, nil
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
		// The id first: at a position holding another row, the row is
		// what differs, not the first of its fields in alphabetical order.
		sort.Slice(keys, func(i, j int) bool {
			if (keys[i] == "id") != (keys[j] == "id") {
				return keys[i] == "id"
			}
			return keys[i] < keys[j]
		})
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
		if d := orderDifference(path, w, g); d != "" {
			return d
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

// orderDifference describes the first position where two lists of rows
// hold different rows when they hold the same rows, or returns "": a list
// in another order is reported as its order, not as the first field that
// differs at that position (persons in id order read as a createdAt
// mismatch).
func orderDifference(path string, want, got []any) string {
	first := -1
	count := map[string]int{}
	for i := range want {
		wk, wok := rowKey(want[i])
		gk, gok := rowKey(got[i])
		if !wok || !gok {
			return ""
		}
		count[wk]++
		count[gk]--
		if first < 0 && wk != gk {
			first = i
		}
	}
	if first < 0 {
		return ""
	}
	for _, n := range count {
		if n != 0 {
			return ""
		}
	}
	wk, _ := rowKey(want[first])
	gk, _ := rowKey(got[first])
	return fmt.Sprintf("%s: order: [%d] is %s, want %s (the same %d rows in another order)", path, first, gk, wk, len(want))
}

// rowKey names the row an item of a list is: its id, or for a funding,
// which has none, its payer's (an appointment has one funding a payer).
func rowKey(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	if id, ok := m["id"]; ok {
		return "id " + describe(id), true
	}
	if p, ok := m["payer"].(map[string]any); ok {
		if id, ok := p["id"]; ok {
			return "payer " + describe(id), true
		}
	}
	return "", false
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
