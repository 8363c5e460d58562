-- name: GetVacancy :one
SELECT * FROM vacancy WHERE id = $1;

-- ListVacancies pages by keyset on id, optionally filtered by status.
-- name: ListVacancies :many
SELECT * FROM vacancy
WHERE (sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status)::text)
  AND id > @after_id
ORDER BY id
LIMIT @row_limit;

-- name: CreateVacancy :one
INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents,
                     salary_max_cents, status, opens_on, closes_on, description, filled_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
RETURNING *;

-- name: UpdateVacancy :one
UPDATE vacancy
SET title = @title, department = @department, location = @location,
    employment_type = @employment_type, salary_min_cents = @salary_min_cents,
    salary_max_cents = @salary_max_cents, status = @status, opens_on = @opens_on,
    closes_on = @closes_on, description = @description, filled_by = @filled_by,
    version = version + 1, updated_at = now()
WHERE id = @id AND version = @version
RETURNING *;

-- name: DeleteVacancy :execrows
DELETE FROM vacancy WHERE id = $1;
