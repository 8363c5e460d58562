package scalar

import (
	"io"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"crudbench/db"
)

// The enums: GraphQL spells each value as the upper case of the data layer's
// value (ON_LEAVE for on_leave). These marshalers replace gqlgen's enum_values
// binding, whose generated lookup turns a value it does not know into the
// zero value without an error; and the GraphQL validator accepts enum
// variables in any case ("open" for OPEN). Here only the exact GraphQL
// spelling is read, anything else is BAD_USER_INPUT.

// payerKinds lists every db.PayerKind (the data layer has no such list).
var payerKinds = []db.PayerKind{db.PayerGrant, db.PayerDepartment, db.PayerExternal}

// roles lists every db.Role.
var roles = []db.Role{db.RoleViewer, db.RoleEditor}

// MarshalPersonStatus writes a db.PersonStatus as its GraphQL enum value.
func MarshalPersonStatus(v db.PersonStatus) graphql.Marshaler { return marshalEnum(v) }

// UnmarshalPersonStatus reads a PersonStatus enum value.
func UnmarshalPersonStatus(v any) (db.PersonStatus, error) {
	return unmarshalEnum(v, "PersonStatus", db.PersonStatuses)
}

// MarshalVacancyStatus writes a db.VacancyStatus as its GraphQL enum value.
func MarshalVacancyStatus(v db.VacancyStatus) graphql.Marshaler { return marshalEnum(v) }

// UnmarshalVacancyStatus reads a VacancyStatus enum value.
func UnmarshalVacancyStatus(v any) (db.VacancyStatus, error) {
	return unmarshalEnum(v, "VacancyStatus", db.VacancyStatuses)
}

// MarshalEmploymentType writes a db.EmploymentType as its GraphQL enum value.
func MarshalEmploymentType(v db.EmploymentType) graphql.Marshaler { return marshalEnum(v) }

// UnmarshalEmploymentType reads an EmploymentType enum value.
func UnmarshalEmploymentType(v any) (db.EmploymentType, error) {
	return unmarshalEnum(v, "EmploymentType", db.EmploymentTypes)
}

// MarshalPayerKind writes a db.PayerKind as its GraphQL enum value.
func MarshalPayerKind(v db.PayerKind) graphql.Marshaler { return marshalEnum(v) }

// UnmarshalPayerKind reads a PayerKind enum value.
func UnmarshalPayerKind(v any) (db.PayerKind, error) {
	return unmarshalEnum(v, "PayerKind", payerKinds)
}

// MarshalRole writes a db.Role as its GraphQL enum value.
func MarshalRole(v db.Role) graphql.Marshaler { return marshalEnum(v) }

// UnmarshalRole reads a Role enum value.
func UnmarshalRole(v any) (db.Role, error) {
	return unmarshalEnum(v, "Role", roles)
}

// EnumValues returns the GraphQL spelling of every value of each enum, for
// the test that keeps the schema and the data layer in step.
func EnumValues() map[string][]string {
	return map[string][]string{
		"PersonStatus":   graphqlNames(db.PersonStatuses),
		"VacancyStatus":  graphqlNames(db.VacancyStatuses),
		"EmploymentType": graphqlNames(db.EmploymentTypes),
		"PayerKind":      graphqlNames(payerKinds),
		"Role":           graphqlNames(roles),
	}
}

// enumMarshalers holds a ready marshaler for every value of every enum, keyed
// by the data layer's value: enums are on every row of a response, and this
// way writing one neither upper-cases, quotes nor allocates.
var enumMarshalers = map[string]graphql.Marshaler{}

func init() {
	addEnum(db.PersonStatuses)
	addEnum(db.VacancyStatuses)
	addEnum(db.EmploymentTypes)
	addEnum(payerKinds)
	addEnum(roles)
}

func addEnum[T ~string](values []T) {
	for _, v := range values {
		enumMarshalers[string(v)] = quotedUpper(string(v))
	}
}

func marshalEnum[T ~string](v T) graphql.Marshaler {
	if m, ok := enumMarshalers[string(v)]; ok {
		return m
	}
	return quotedUpper(string(v))
}

// quotedUpper writes v in upper case as a JSON string.
func quotedUpper(v string) graphql.Marshaler {
	b := []byte(strconv.Quote(strings.ToUpper(v)))
	return graphql.WriterFunc(func(w io.Writer) { _, _ = w.Write(b) })
}

func unmarshalEnum[T ~string](v any, enum string, values []T) (T, error) {
	if s, ok := v.(string); ok {
		for _, value := range values {
			if strings.ToUpper(string(value)) == s {
				return value, nil
			}
		}
	}
	return "", db.Errorf(db.EINVALID, "a %s is one of %s", enum, strings.Join(graphqlNames(values), ", "))
}

func graphqlNames[T ~string](values []T) []string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = strings.ToUpper(string(v))
	}
	return names
}
