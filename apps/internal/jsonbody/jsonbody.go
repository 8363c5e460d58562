// Package jsonbody reads the API's JSON request bodies into the domain's
// inputs, strictly and with a message for each field that is wrong. The
// REST and AMQP apps take the same bodies and refuse them alike, so both
// decode with it once they have checked the media type their own way.
package jsonbody

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// Decode reads body into a T, strictly: valid UTF-8 holding exactly one
// JSON object whose members are all fields of T, spelled exactly, with
// values of the right types. Every rejection is an httpproblem.Error
// naming what is wrong (and the field, where there is one); rules about
// the values themselves are the store's business.
func Decode[T any](body []byte) (T, error) {
	var v T
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return v, httpproblem.BadRequest("the body is empty: send a JSON object", nil)
	case !utf8.Valid(body):
		return v, httpproblem.BadRequest("the body is not valid UTF-8", nil)
	case trimmed[0] != '{':
		// A byte-order mark lands here too: JSON on the wire carries none.
		return v, httpproblem.BadRequest("the body must be a JSON object", nil)
	}
	// encoding/json matches member names to fields case-insensitively
	// ("TITLE" would set title) and has no switch against it, so the names
	// are checked first, exactly. This pass also rejects malformed JSON and
	// anything after the object.
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return v, decodeError(err)
	}
	if unknown := unknownMembers(members, reflect.TypeFor[T]()); len(unknown) > 0 {
		return v, httpproblem.BadRequest("the body has a field this request does not take", unknown)
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return v, decodeError(err)
	}
	return v, nil
}

// decodeError turns an encoding/json error into a client-safe
// httpproblem.Error.
func decodeError(err error) error {
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
		return httpproblem.BadRequest("a field has the wrong type", map[string]string{te.Field: typeMessage(te.Type)})
	}
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return httpproblem.BadRequest(fmt.Sprintf("the body is not valid JSON: %s (at byte %d)", se.Error(), se.Offset), nil)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return httpproblem.BadRequest("the body is not valid JSON: it ends too early", nil)
	}
	return httpproblem.BadRequest("the body does not match the request's shape", nil)
}

// unknownMembers returns a message for each member of a JSON object that
// is not, spelled exactly, the JSON name of a field of the struct type t.
func unknownMembers(members map[string]json.RawMessage, t reflect.Type) map[string]string {
	known := make(map[string]bool, t.NumField())
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		known[name] = true
	}
	var unknown map[string]string
	for k := range members {
		if !known[k] {
			if unknown == nil {
				unknown = map[string]string{}
			}
			unknown[k] = "is not a field of this request"
		}
	}
	return unknown
}

var dateType = reflect.TypeFor[date]()

// typeMessage says what a field of type t must hold.
func typeMessage(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == dateType {
		return "must be a date written YYYY-MM-DD"
	}
	switch t.Kind() {
	case reflect.String:
		return "must be a string"
	case reflect.Bool:
		return "must be true or false"
	case reflect.Int32:
		return "must be a whole number from -2147483648 to 2147483647"
	case reflect.Int, reflect.Int64:
		return "must be a whole number from -9223372036854775808 to 9223372036854775807"
	case reflect.Float32, reflect.Float64:
		return "must be a number"
	}
	return "has the wrong type"
}

// date is a db.Date in a request body. A malformed one is reported as a
// type error, so that the decoder names the field it came from.
type date db.Date

// UnmarshalJSON reads a "YYYY-MM-DD" string; null leaves the date unset.
func (d *date) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		if v, err := db.ParseDate(s); err == nil {
			*d = date(v)
			return nil
		}
	}
	return &json.UnmarshalTypeError{Value: "date", Type: dateType}
}

// datePtr converts an optional request date.
func datePtr(d *date) *db.Date {
	if d == nil {
		return nil
	}
	v := db.Date(*d)
	return &v
}

// Optional is a field of an update body: absent, null or a value. Plain
// pointers cannot tell an absent field from a null one, and null means
// "clear it" for the fields that may be empty.
type Optional[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON records that the field was present, and whether it was null.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// patchField returns the value of a field that cannot be cleared, nil when
// it is absent, and records a problem when it is null.
func patchField[T any](o Optional[T], name string, problems map[string]string) *T {
	if o.Null {
		problems[name] = "must not be null"
		return nil
	}
	if !o.Set {
		return nil
	}
	return &o.Value
}
