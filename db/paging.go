package db

import "strconv"

// The page-size rule of every list in every app: a client asks for 1 to
// MaxLimit rows and gets DefaultLimit when it asks for nothing.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// msgLimit says what is wrong with a page size, in the same words whichever
// app and argument asked for it.
var msgLimit = "must be a whole number from 1 to " + strconv.Itoa(MaxLimit)

// PageLimit checks a page size a client asked for under the name field
// ("limit", "first"): 1 to MaxLimit, else an EINVALID error naming field.
// A size not asked for is not checked: the transport leaves the filter's
// Limit 0, and the Store uses DefaultLimit.
func PageLimit(field string, n int64) (int, error) {
	if n < 1 || n > MaxLimit {
		return 0, invalid(map[string]string{field: msgLimit})
	}
	return int(n), nil
}

// ParsePageLimit is PageLimit for a page size written as text, a query
// parameter: "" (not asked for) is 0, the filters' DefaultLimit, and text
// that is not a whole number is refused like a number out of range.
func ParsePageLimit(field, s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, invalid(map[string]string{field: msgLimit})
	}
	return PageLimit(field, n)
}

// filterLimit is the page size of a list filter, whose Limit 0 means
// DefaultLimit.
func filterLimit(limit int) (int, error) {
	if limit == 0 {
		return DefaultLimit, nil
	}
	return PageLimit("limit", int64(limit))
}
