package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"crudbench/bench/scenario"
)

func decode(t *testing.T, kind scenario.Kind, s string) any {
	t.Helper()
	v, err := normalized(kind, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func normalized(kind scenario.Kind, s string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return scenario.Normalize(kind, v)
}

func TestParity(t *testing.T) {
	rest := `{"id":1,"firstName":"Ada","status":"on_leave","createdAt":"2024-01-02T03:04:05.5+01:00",
		"appointments":[{"id":7,"personId":1,"fte":0.5,"endsOn":null,
			"stipends":[{"id":9,"appointmentId":7,"payer":{"id":3,"kind":"grant"},"amountCents":120000}]}]}`
	tests := []struct {
		name, graphql, diff string
	}{
		{"same data", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T02:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120000}]}]}`, ""},
		{"other value", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T02:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120001}]}]}`,
			"person.appointments[0].stipends[0].amountCents: got 120001, want 120000"},
		{"missing field", `{"id":"1","firstName":"Ada","status":"ON_LEAVE",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120000}]}]}`,
			"person.createdAt: missing"},
		{"extra row", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T02:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,"stipends":[]},{}]}`,
			"person.appointments: 2 items, want 1"},
		{"other time", `{"id":"1","firstName":"Ada","status":"ON_LEAVE","createdAt":"2024-01-02T03:04:05.5Z",
			"appointments":[{"id":"7","personId":"1","fte":0.5,"endsOn":null,
				"stipends":[{"id":"9","appointmentId":"7","payer":{"id":"3","kind":"GRANT"},"amountCents":120000}]}]}`,
			"person.createdAt: got"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := scenario.FirstDifference("person", decode(t, scenario.KindREST, rest), decode(t, scenario.KindGraphQL, tt.graphql))
			if tt.diff == "" && d != "" {
				t.Errorf("difference %q, want none", d)
			}
			if tt.diff != "" && !strings.HasPrefix(d, tt.diff) {
				t.Errorf("difference %q, want %q", d, tt.diff)
			}
		})
	}
}

// TestNormalizeFollowsEachKindsContract checks that each kind's answer is
// read as its contract writes it: a value in another kind's type is not
// made to match.
func TestNormalizeFollowsEachKindsContract(t *testing.T) {
	ref := decode(t, scenario.KindREST, `{"id":1,"status":"open","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`)
	tests := []struct {
		name   string
		kind   scenario.Kind
		answer string
		want   string // the difference or the error, "" when it matches
	}{
		{"rest as the contract says", scenario.KindREST, `{"id":1,"status":"open","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T10:00:00+01:00"}`, ""},
		{"rest id as a string", scenario.KindREST, `{"id":"1","status":"open","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `v.id: got "1", want 1`},
		{"rest enum in upper case", scenario.KindREST, `{"id":1,"status":"OPEN","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `v.status: got "OPEN", want "open"`},
		{"rest date as a timestamp", scenario.KindREST, `{"id":1,"status":"open","filledBy":null,"opensOn":"2025-01-06T00:00:00Z","createdAt":"2025-01-06T09:00:00Z"}`, `v.opensOn: got "2025-01-06T00:00:00Z", want "2025-01-06"`},
		{"graphql as the contract says", scenario.KindGraphQL, `{"id":"1","status":"OPEN","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, ""},
		{"graphql enum in lower case", scenario.KindGraphQL, `{"id":"1","status":"open","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `.status: "open": a GraphQL enum value is in upper case`},
		{"graphql id as a number", scenario.KindGraphQL, `{"id":1,"status":"OPEN","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `.id: 1: a GraphQL ID is written as a string`},
		{"grpc as the contract says", scenario.KindGRPC, `{"id":"1","status":"VACANCY_STATUS_OPEN","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, ""},
		{"grpc enum without its prefix", scenario.KindGRPC, `{"id":"1","status":"OPEN","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `.status: "OPEN": a gRPC enum value is its enum's prefix and the value in upper case`},
		{"grpc enum in lower case", scenario.KindGRPC, `{"id":"1","status":"VACANCY_STATUS_open","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `.status: "VACANCY_STATUS_open": a gRPC enum value is its enum's prefix and the value in upper case`},
		{"grpc int64 as a number", scenario.KindGRPC, `{"id":1,"status":"VACANCY_STATUS_OPEN","filledBy":null,"opensOn":"2025-01-06","createdAt":"2025-01-06T09:00:00Z"}`, `.id: 1: protojson writes an int64 as a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := normalized(tt.kind, tt.answer)
			d := ""
			if err != nil {
				d = err.Error()
			} else {
				d = scenario.FirstDifference("v", ref, got)
			}
			if d != tt.want {
				t.Errorf("got %q, want %q", d, tt.want)
			}
		})
	}
}

// TestParityOrder checks that a list holding the reference's rows in
// another order is reported as its order at the first position where the
// rows differ, and another row at a position as its id, not as the first
// field in alphabetical order that differs.
func TestParityOrder(t *testing.T) {
	ref := `[{"id":1,"createdAt":"2025-01-06T09:00:00Z","fundings":[{"payer":{"id":40,"code":"A040"}},{"payer":{"id":10,"code":"P010"}}]},
		{"id":2,"createdAt":"2025-01-06T09:01:00Z","fundings":[]},{"id":3,"createdAt":"2025-01-06T09:02:00Z","fundings":[]}]`
	for _, tt := range []struct{ name, answer, want string }{
		{"rows in another order", `[{"id":1,"createdAt":"2025-01-06T09:00:00Z","fundings":[{"payer":{"id":40,"code":"A040"}},{"payer":{"id":10,"code":"P010"}}]},
			{"id":3,"createdAt":"2025-01-06T09:02:00Z","fundings":[]},{"id":2,"createdAt":"2025-01-06T09:01:00Z","fundings":[]}]`,
			"list: order: [1] is id 3, want id 2 (the same 3 rows in another order)"},
		{"fundings by payer id", `[{"id":1,"createdAt":"2025-01-06T09:00:00Z","fundings":[{"payer":{"id":10,"code":"P010"}},{"payer":{"id":40,"code":"A040"}}]},
			{"id":2,"createdAt":"2025-01-06T09:01:00Z","fundings":[]},{"id":3,"createdAt":"2025-01-06T09:02:00Z","fundings":[]}]`,
			"list[0].fundings: order: [0] is payer 10, want payer 40 (the same 2 rows in another order)"},
		{"another row", `[{"id":1,"createdAt":"2025-01-06T09:00:00Z","fundings":[{"payer":{"id":40,"code":"A040"}},{"payer":{"id":10,"code":"P010"}}]},
			{"id":7,"createdAt":"2025-01-06T09:07:00Z","fundings":[]},{"id":3,"createdAt":"2025-01-06T09:02:00Z","fundings":[]}]`,
			"list[1].id: got 7, want 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if d := scenario.FirstDifference("list", decode(t, scenario.KindREST, ref), decode(t, scenario.KindREST, tt.answer)); d != tt.want {
				t.Errorf("difference %q, want %q", d, tt.want)
			}
		})
	}
}
