-- The batch loaders below serve both the nested person detail (one person)
-- and the GraphQL dataloaders (many persons at once): one statement per level.

-- name: ListAppointmentsByPersons :many
SELECT * FROM appointment
WHERE person_id = ANY(@person_ids::bigint[])
ORDER BY person_id, starts_on, id;

-- name: ListStipendsByAppointments :many
SELECT sqlc.embed(stipend), sqlc.embed(payer)
FROM stipend JOIN payer ON payer.id = stipend.payer_id
WHERE stipend.appointment_id = ANY(@appointment_ids::bigint[])
ORDER BY stipend.appointment_id, stipend.starts_on, stipend.id;

-- name: ListFundingsByAppointments :many
SELECT sqlc.embed(funding), sqlc.embed(payer)
FROM funding JOIN payer ON payer.id = funding.payer_id
WHERE funding.appointment_id = ANY(@appointment_ids::bigint[])
ORDER BY funding.appointment_id, payer.code;

-- name: CreateAppointment :one
INSERT INTO appointment (person_id, position_title, department, fte, starts_on, ends_on)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING *;

-- name: CreateStipend :one
INSERT INTO stipend (appointment_id, payer_id, amount_cents, currency, starts_on, ends_on)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING *;

-- name: CreateFunding :one
INSERT INTO funding (appointment_id, payer_id, percent)
VALUES ($1, $2, $3)
RETURNING *;

-- name: GetPayer :one
SELECT * FROM payer WHERE id = $1;
