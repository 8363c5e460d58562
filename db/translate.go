package db

import (
	"context"
	"errors"
	"io"
	"net"

	"github.com/jackc/pgx/v5/pgconn"
)

// constraintFields names the input field and the message behind each
// database constraint, so that a violation the Store did not catch first
// still reaches the client as a field-level error and never as a 500.
var constraintFields = map[string][2]string{
	"person_employee_no_key":           {"employeeNo", "is already used by another person"},
	"person_email_key":                 {"email", "is already used by another person"},
	"person_employee_no_check":         {"employeeNo", "must be a positive number"},
	"person_first_name_check":          {"firstName", "must be 1 to 100 characters"},
	"person_last_name_check":           {"lastName", "must be 1 to 100 characters"},
	"person_email_check":               {"email", "must be a valid email address"},
	"person_phone_check":               {"phone", "must be at most 40 characters"},
	"person_department_check":          {"department", "must be 1 to 100 characters"},
	"person_status_check":              {"status", "is not a known status"},
	"appointment_person_id_fkey":       {"personId", "does not exist"},
	"appointment_fte_check":            {"fte", "must be greater than 0 and at most 1"},
	"appointment_dates_check":          {"endsOn", "must not be before startsOn"},
	"stipend_appointment_id_fkey":      {"appointmentId", "does not exist"},
	"stipend_payer_id_fkey":            {"payerId", "does not exist"},
	"stipend_amount_cents_check":       {"amountCents", "must be greater than 0"},
	"stipend_currency_check":           {"currency", "must be an ISO 4217 code like EUR"},
	"stipend_dates_check":              {"endsOn", "must not be before startsOn"},
	"funding_pkey":                     {"payerId", "already funds this appointment"},
	"funding_appointment_id_fkey":      {"appointmentId", "does not exist"},
	"funding_payer_id_fkey":            {"payerId", "does not exist"},
	"funding_percent_check":            {"percent", "must be greater than 0 and at most 100"},
	"funding_total_check":              {"percent", "would take the appointment's fundings over 100 percent"},
	"vacancy_filled_by_fkey":           {"filledBy", "is not the id of a person"},
	"vacancy_salary_check":             {"salaryMaxCents", "must not be less than salaryMinCents"},
	"vacancy_salary_min_cents_check":   {"salaryMinCents", "must not be negative"},
	"vacancy_status_check":             {"status", "is not a known status"},
	"vacancy_employment_type_check":    {"employmentType", "is not a known employment type"},
	"vacancy_dates_check":              {"closesOn", "must not be before opensOn"},
	"vacancy_title_check":              {"title", "must be 1 to 200 characters"},
	"vacancy_department_check":         {"department", "must be 1 to 100 characters"},
	"vacancy_location_check":           {"location", "must be 1 to 100 characters"},
	"vacancy_description_check":        {"description", "must be at most 10000 characters"},
	"app_user_username_key":            {"username", "is already taken"},
	"appointment_position_title_check": {"positionTitle", "must be 1 to 200 characters"},
	"appointment_department_check":     {"department", "must be 1 to 100 characters"},
	"payer_code_key":                   {"code", "is already used by another payer"},
	"payer_code_check":                 {"code", "must be 1 to 20 characters"},
	"payer_name_check":                 {"name", "must be 1 to 200 characters"},
	"payer_kind_check":                 {"kind", "is not a known payer kind"},
	"app_user_role_check":              {"role", "is not a known role"},
}

// translate turns a driver error into the Store's vocabulary. Internal
// details stay in Err for the logs.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*Error](err); ok {
		return err
	}
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok {
		switch pgErr.Code[:2] {
		case "23": // integrity constraint violation
			code := EINVALID
			if pgErr.Code == "23505" { // unique_violation
				code = ECONFLICT
			}
			if f, ok := constraintFields[pgErr.ConstraintName]; ok {
				return &Error{Code: code, Message: "invalid input", Fields: map[string]string{f[0]: f[1]}, Err: err}
			}
			return &Error{Code: code, Message: "the data breaks a database rule", Err: err}
		case "22": // data exception: bad encoding, out of range, too long
			return &Error{Code: EINVALID, Message: "a value is out of range or malformed", Err: err}
		case "57":
			if pgErr.Code == "57014" { // query_canceled: the statement timeout, or a cancel request
				return &Error{Code: EUNAVAILABLE, Message: msgTooSlow, Err: err}
			}
			return &Error{Code: EUNAVAILABLE, Message: msgUnavailable, Err: err} // operator intervention: shutting down
		case "08", "53": // connection exception, insufficient resources
			return &Error{Code: EUNAVAILABLE, Message: msgUnavailable, Err: err}
		}
		return &Error{Code: EINTERNAL, Message: msgInternal, Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		// The request's deadline passed while it waited for the database:
		// for a pool connection, or for an answer that did not come.
		return &Error{Code: EUNAVAILABLE, Message: msgTooSlow, Err: err}
	}
	if unavailable(err) {
		return &Error{Code: EUNAVAILABLE, Message: msgUnavailable, Err: err}
	}
	return &Error{Code: EINTERNAL, Message: msgInternal, Err: err}
}

// The client-safe messages of EUNAVAILABLE: the database is away, or it did
// not answer within the request's deadline or the statement timeout.
const (
	msgUnavailable = "the database is unavailable"
	msgTooSlow     = "the database did not answer in time"
)

// unavailable reports errors of reaching the database rather than of the
// statement: refused or broken connections, and requests given up (a
// client that went away cancels its context).
func unavailable(err error) bool {
	if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
		return true
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return true
	}
	if pgconn.SafeToRetry(err) {
		return true
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.Canceled)
}
