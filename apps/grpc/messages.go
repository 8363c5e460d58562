package main

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/db"
)

// The conversions between the Store's types and the messages. Enums map
// by name: the store's "on_leave" is PERSON_STATUS_ON_LEAVE, its prefix
// then the value in upper case, and back.

// enumOf is the proto enum value of the store's s, 0 (UNSPECIFIED) for
// an empty or unknown s.
func enumOf[E ~int32](values map[string]int32, prefix, s string) E {
	return E(values[prefix+strings.ToUpper(s)])
}

// storeEnum is the store's string of proto enum value v, "" for
// UNSPECIFIED or a number the enum lacks (knownEnums refuses the latter
// before any handler runs).
func storeEnum[S ~string](names map[int32]string, prefix string, v int32) S {
	name, ok := names[v]
	if !ok || v == 0 {
		return ""
	}
	return S(strings.ToLower(strings.TrimPrefix(name, prefix)))
}

// unknownEnums adds to fields (allocating it when nil) every enum field of
// m whose number its enum does not declare, in nested messages, lists and
// maps too, named by its path under prefix ("vacancy.status",
// "items[2]"), and returns fields.
func unknownEnums(m protoreflect.Message, prefix string, fields map[string]string) map[string]string {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		name := prefix + string(fd.Name())
		switch {
		case fd.IsList():
			for i := range v.List().Len() {
				fields = unknownEnum(fd, v.List().Get(i), fmt.Sprintf("%s[%d]", name, i), fields)
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				fields = unknownEnum(fd.MapValue(), v, fmt.Sprintf("%s[%v]", name, k), fields)
				return true
			})
		default:
			fields = unknownEnum(fd, v, name, fields)
		}
		return true
	})
	return fields
}

// unknownEnum is unknownEnums for one value v of field fd, named name.
func unknownEnum(fd protoreflect.FieldDescriptor, v protoreflect.Value, name string, fields map[string]string) map[string]string {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		if fd.Enum().Values().ByNumber(v.Enum()) == nil {
			if fields == nil {
				fields = map[string]string{}
			}
			fields[name] = "is not a " + string(fd.Enum().Name())
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		fields = unknownEnums(v.Message(), name+".", fields)
	}
	return fields
}

func timestamp(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

func dateString(d db.Date) string { return d.String() }

// optionalDate is a nullable date as an optional string field.
func optionalDate(d *db.Date) *string {
	if d == nil {
		return nil
	}
	s := d.String()
	return &s
}

// parseDate reads a request's date field, naming field when it is not a
// date.
func parseDate(field, s string) (db.Date, error) {
	d, err := db.ParseDate(s)
	if err != nil {
		return db.Date{}, invalidField(field, "must be a date of the form YYYY-MM-DD")
	}
	return d, nil
}

// parseOptionalDate is parseDate for an optional field: nil stays nil.
func parseOptionalDate(field string, s *string) (*db.Date, error) {
	if s == nil {
		return nil, nil
	}
	d, err := parseDate(field, *s)
	return &d, err
}

func personMessage(p db.Person) *crudbenchv1.Person {
	return &crudbenchv1.Person{
		Id: p.ID, EmployeeNo: p.EmployeeNo, FirstName: p.FirstName, LastName: p.LastName,
		Email: p.Email, Phone: p.Phone, Department: p.Department,
		Status:  enumOf[crudbenchv1.PersonStatus](crudbenchv1.PersonStatus_value, "PERSON_STATUS_", string(p.Status)),
		HiredOn: dateString(p.HiredOn), Version: p.Version,
		CreatedAt: timestamp(p.CreatedAt), UpdatedAt: timestamp(p.UpdatedAt),
	}
}

func payerMessage(p db.Payer) *crudbenchv1.Payer {
	return &crudbenchv1.Payer{
		Id: p.ID, Code: p.Code, Name: p.Name,
		Kind: enumOf[crudbenchv1.PayerKind](crudbenchv1.PayerKind_value, "PAYER_KIND_", string(p.Kind)),
	}
}

func appointmentMessage(a db.Appointment) *crudbenchv1.Appointment {
	out := &crudbenchv1.Appointment{
		Id: a.ID, PersonId: a.PersonID, PositionTitle: a.PositionTitle, Department: a.Department,
		Fte: a.FTE, StartsOn: dateString(a.StartsOn), EndsOn: optionalDate(a.EndsOn),
		Stipends: make([]*crudbenchv1.Stipend, len(a.Stipends)),
		Fundings: make([]*crudbenchv1.Funding, len(a.Fundings)),
	}
	for i, s := range a.Stipends {
		out.Stipends[i] = &crudbenchv1.Stipend{
			Id: s.ID, AppointmentId: s.AppointmentID, Payer: payerMessage(s.Payer),
			AmountCents: s.AmountCents, Currency: s.Currency,
			StartsOn: dateString(s.StartsOn), EndsOn: optionalDate(s.EndsOn),
		}
	}
	for i, f := range a.Fundings {
		out.Fundings[i] = &crudbenchv1.Funding{AppointmentId: f.AppointmentID, Payer: payerMessage(f.Payer), Percent: f.Percent}
	}
	return out
}

func vacancyMessage(v db.Vacancy) *crudbenchv1.Vacancy {
	return &crudbenchv1.Vacancy{
		Id: v.ID, Title: v.Title, Department: v.Department, Location: v.Location,
		EmploymentType: enumOf[crudbenchv1.EmploymentType](crudbenchv1.EmploymentType_value, "EMPLOYMENT_TYPE_", string(v.EmploymentType)),
		SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents,
		Status:  enumOf[crudbenchv1.VacancyStatus](crudbenchv1.VacancyStatus_value, "VACANCY_STATUS_", string(v.Status)),
		OpensOn: dateString(v.OpensOn), ClosesOn: optionalDate(v.ClosesOn),
		Description: v.Description, FilledBy: v.FilledBy, Version: v.Version,
		CreatedAt: timestamp(v.CreatedAt), UpdatedAt: timestamp(v.UpdatedAt),
	}
}

func employmentType(v crudbenchv1.EmploymentType) db.EmploymentType {
	return storeEnum[db.EmploymentType](crudbenchv1.EmploymentType_name, "EMPLOYMENT_TYPE_", int32(v))
}

func vacancyStatus(v crudbenchv1.VacancyStatus) db.VacancyStatus {
	return storeEnum[db.VacancyStatus](crudbenchv1.VacancyStatus_name, "VACANCY_STATUS_", int32(v))
}

// pageSize is a request's page size for a Store filter: 0 (not asked
// for) stays 0, the Store's default; anything else must be 1 to
// db.MaxLimit.
func pageSize(n int32) (int, error) {
	if n == 0 {
		return 0, nil
	}
	return db.PageLimit("pageSize", int64(n))
}
