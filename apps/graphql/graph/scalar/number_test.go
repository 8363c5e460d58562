package scalar_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"crudbench/apps/graphql/graph/scalar"
	"crudbench/db"
)

// Each number scalar takes the values GraphQL's input coercion takes (a
// literal arrives as int64 or float64, a variable as json.Number) and
// refuses strings, fractions for integers, and out-of-range values, each
// with an EINVALID error that the app reports as BAD_USER_INPUT.
func TestNumbers(t *testing.T) {
	t.Parallel()
	unmarshalers := map[string]func(any) (any, error){
		"Int":     func(v any) (any, error) { return scalar.UnmarshalInt(v) },
		"Int64":   func(v any) (any, error) { return scalar.UnmarshalInt64(v) },
		"Float":   func(v any) (any, error) { return scalar.UnmarshalFloat(context.Background(), v) },
		"Boolean": func(v any) (any, error) { return scalar.UnmarshalBoolean(v) },
	}
	tests := []struct {
		scalar string
		in     any
		want   any // nil: refused
	}{
		{"Int", int64(10), int32(10)},
		{"Int", json.Number("-10"), int32(-10)},
		{"Int", float64(3), int32(3)},
		{"Int", int64(math.MaxInt32), int32(math.MaxInt32)},
		{"Int", "10", nil},
		{"Int", json.Number("1.5"), nil},
		{"Int", 1.5, nil},
		{"Int", int64(math.MaxInt32 + 1), nil},
		{"Int", true, nil},
		{"Int", nil, nil},
		{"Int64", json.Number("12000000000"), int64(12_000_000_000)},
		{"Int64", int64(math.MinInt64), int64(math.MinInt64)},
		{"Int64", "100", nil},
		{"Int64", json.Number("9223372036854775808"), nil},
		{"Int64", math.Pow(2, 63), nil},
		{"Float", 0.5, 0.5},
		{"Float", int64(2), 2.0},
		{"Float", json.Number("1e3"), 1000.0},
		{"Float", "0.5", nil},
		{"Float", json.Number("1e400"), nil},
		{"Float", math.NaN(), nil},
		{"Boolean", true, true},
		{"Boolean", false, false},
		{"Boolean", "true", nil},
		{"Boolean", "yes", nil},
		{"Boolean", int64(1), nil},
	}
	for _, tt := range tests {
		got, err := unmarshalers[tt.scalar](tt.in)
		if tt.want == nil {
			if dbErr, ok := errors.AsType[*db.Error](err); !ok || dbErr.Code != db.EINVALID {
				t.Errorf("%s from %T %v: %v, %v; want an EINVALID error", tt.scalar, tt.in, tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s from %T %v: %v (%T), %v; want %v (%T)", tt.scalar, tt.in, tt.in, got, got, err, tt.want, tt.want)
		}
	}
}
