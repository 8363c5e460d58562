package scalar

import (
	"context"
	"encoding/json"
	"math"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	"crudbench/db"
)

// The built-in scalars Int, Float and Boolean, and Int64, read as the
// GraphQL spec's input coercion has it: an Int is an integer, a Float a
// number, a Boolean true or false, never a string. gqlgen's own unmarshalers
// (graphql.UnmarshalInt32, UnmarshalFloatContext, UnmarshalBoolean,
// UnmarshalInt64) accept "10", "1.5" and "true" (and read any other string
// as false), and gqlparser's variable validation lets a string through for
// Int and Float, so gqlgen.yml binds these four scalars here instead. Output
// is written by gqlgen's marshalers, unchanged.

// MarshalInt writes a GraphQL Int.
func MarshalInt(i int32) graphql.Marshaler { return graphql.MarshalInt32(i) }

// UnmarshalInt reads a GraphQL Int: an integer that fits in 32 bits.
func UnmarshalInt(v any) (int32, error) {
	n, ok := integer(v)
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, db.Errorf(db.EINVALID, "an Int is a whole number from %d to %d, written without quotes", math.MinInt32, math.MaxInt32)
	}
	return int32(n), nil
}

// MarshalInt64 writes an Int64.
func MarshalInt64(i int64) graphql.Marshaler { return graphql.MarshalInt64(i) }

// UnmarshalInt64 reads an Int64: an integer that fits in 64 bits.
func UnmarshalInt64(v any) (int64, error) {
	n, ok := integer(v)
	if !ok {
		return 0, db.Errorf(db.EINVALID, "an Int64 is a whole number written without quotes, like 5000000")
	}
	return n, nil
}

// MarshalFloat writes a GraphQL Float (an error for NaN and infinities,
// which JSON cannot carry).
func MarshalFloat(f float64) graphql.ContextMarshaler { return graphql.MarshalFloatContext(f) }

// UnmarshalFloat reads a GraphQL Float: a finite number, integers included.
func UnmarshalFloat(_ context.Context, v any) (float64, error) {
	var f float64
	var err error
	switch v := v.(type) {
	case float64:
		f = v
	case int64:
		f = float64(v)
	case int:
		f = float64(v)
	case json.Number:
		f, err = strconv.ParseFloat(string(v), 64)
	default:
		err = strconv.ErrSyntax
	}
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, db.Errorf(db.EINVALID, "a Float is a number written without quotes, like 0.5")
	}
	return f, nil
}

// MarshalBoolean writes a GraphQL Boolean.
func MarshalBoolean(b bool) graphql.Marshaler { return graphql.MarshalBoolean(b) }

// UnmarshalBoolean reads a GraphQL Boolean: true or false.
func UnmarshalBoolean(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, db.Errorf(db.EINVALID, "a Boolean is true or false, written without quotes")
	}
	return b, nil
}

// integer returns v as an int64 when it is an integer: a literal (int64),
// a variable decoded from JSON (json.Number, or int64 once the validator has
// coerced it), or a whole float64 from a decoder without UseNumber.
func integer(v any) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		return n, err == nil
	case float64:
		if v != math.Trunc(v) || v < math.MinInt64 || v >= math.MaxInt64 {
			return 0, false
		}
		return int64(v), true
	}
	return 0, false
}
