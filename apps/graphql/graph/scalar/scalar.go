// Package scalar reads and writes the GraphQL app's custom scalars and its
// enums: ID as the database's int64 keys, Date as crudbench/db.Date, and each
// enum as the data layer's string type. gqlgen finds the functions by name
// (MarshalInt64ID and UnmarshalInt64ID for the model scalar.Int64ID, and so
// on) through the models section of gqlgen.yml.
//
// Bad input is a *db.Error with code EINVALID, so the app's one error
// translator reports it as BAD_USER_INPUT like any other validation failure.
package scalar

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	"crudbench/db"
)

// MarshalInt64ID writes an id as a GraphQL ID: a JSON string of its decimal
// digits, as the GraphQL spec serialises every ID.
func MarshalInt64ID(id int64) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		b := make([]byte, 0, 22)
		b = append(b, '"')
		b = strconv.AppendInt(b, id, 10)
		b = append(b, '"')
		_, _ = w.Write(b)
	})
}

// UnmarshalInt64ID reads an ID given as a string of decimal digits or as an
// integer (the spec allows both as input) and accepts only positive values:
// no row has another id.
func UnmarshalInt64ID(v any) (int64, error) {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = string(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	case int:
		s = strconv.Itoa(v)
	default:
		return 0, invalidID()
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, invalidID()
	}
	return id, nil
}

func invalidID() error {
	return db.Errorf(db.EINVALID, "an ID is a positive integer, like \"42\"")
}

// MarshalDate writes a day as "YYYY-MM-DD", the same bytes the REST app
// writes.
func MarshalDate(d db.Date) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		b := make([]byte, 0, 12)
		b = append(b, '"')
		b = append(b, d.String()...)
		b = append(b, '"')
		_, _ = w.Write(b)
	})
}

// UnmarshalDate reads a "YYYY-MM-DD" string.
func UnmarshalDate(v any) (db.Date, error) {
	s, ok := v.(string)
	if !ok {
		return db.Date{}, invalidDate()
	}
	d, err := db.ParseDate(s)
	if err != nil {
		return db.Date{}, invalidDate()
	}
	return d, nil
}

func invalidDate() error {
	return db.Errorf(db.EINVALID, "a Date is a string of the form YYYY-MM-DD, like \"2024-03-01\"")
}
