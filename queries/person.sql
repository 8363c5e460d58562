-- name: GetPerson :one
SELECT * FROM person WHERE id = $1;

-- name: ListPersonsByIDs :many
SELECT * FROM person WHERE id = ANY(@ids::bigint[]) ORDER BY id;

-- ListPersons pages by keyset on (last_name, first_name, id); search is an
-- ILIKE pattern over name and email, already escaped by the Store.
-- name: ListPersons :many
SELECT * FROM person
WHERE (sqlc.narg(search)::text IS NULL
       OR (first_name || ' ' || last_name || ' ' || email) ILIKE sqlc.narg(search)::text)
  AND (NOT @has_after::boolean
       OR (last_name, first_name, id) > (@after_last_name::text, @after_first_name::text, @after_id::bigint))
ORDER BY last_name, first_name, id
LIMIT @row_limit;

-- ListPersonNames is what a person picker reads: the id and names of the
-- persons in ListPersons' order, matched on the names only, and nothing
-- else, so the database sends and the app decodes three columns a row
-- instead of every column.
-- name: ListPersonNames :many
SELECT id, first_name, last_name FROM person
WHERE sqlc.narg(search)::text IS NULL
   OR (first_name || ' ' || last_name) ILIKE sqlc.narg(search)::text
ORDER BY last_name, first_name, id
LIMIT @row_limit;

-- name: CreatePerson :one
INSERT INTO person (employee_no, first_name, last_name, email, phone, department, status, hired_on)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
RETURNING *;

-- UpdatePerson writes only when the caller read the current version; no row
-- means the person is gone or somebody else updated it first.
-- name: UpdatePerson :one
UPDATE person
SET employee_no = @employee_no, first_name = @first_name, last_name = @last_name,
    email = @email, phone = @phone, department = @department, status = @status,
    hired_on = @hired_on, version = version + 1, updated_at = now()
WHERE id = @id AND version = @version
RETURNING *;

-- name: DeletePerson :execrows
DELETE FROM person WHERE id = $1;

-- name: CountPersons :one
SELECT count(*) FROM person;
