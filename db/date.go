package db

import (
	"fmt"
	"time"
)

// DateLayout is how every transport writes a Date.
const DateLayout = "2006-01-02"

// Date is a calendar day without a time zone (hire dates, appointment
// periods). It is written as 2006-01-02 everywhere so that the three apps show
// the same value byte for byte.
type Date struct{ t time.Time }

// NewDate returns the Date of year, month and day.
func NewDate(year int, month time.Month, day int) Date {
	return Date{time.Date(year, month, day, 0, 0, 0, 0, time.UTC)}
}

// DateOf returns the calendar day of t in t's location.
func DateOf(t time.Time) Date { return NewDate(t.Date()) }

// ParseDate reads a 2006-01-02 date.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("%q is not a date of the form YYYY-MM-DD", s)
	}
	return Date{t}, nil
}

// Time returns midnight UTC of the day.
func (d Date) Time() time.Time { return d.t }

// IsZero reports whether d is the zero Date (no day set).
func (d Date) IsZero() bool { return d.t.IsZero() }

// Equal reports whether d and e are the same day.
func (d Date) Equal(e Date) bool { return d.t.Equal(e.t) }

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool { return d.t.Before(e.t) }

// AddDays returns the day n days after d.
func (d Date) AddDays(n int) Date { return Date{d.t.AddDate(0, 0, n)} }

// String returns the day as 2006-01-02.
func (d Date) String() string { return d.t.Format(DateLayout) }

// MarshalText writes the day as 2006-01-02 (JSON uses it too).
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a 2006-01-02 day.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

func datePtr(t *time.Time) *Date {
	if t == nil {
		return nil
	}
	d := DateOf(*t)
	return &d
}

func timePtr(d *Date) *time.Time {
	if d == nil {
		return nil
	}
	t := d.Time()
	return &t
}
