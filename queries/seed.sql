-- Bulk loads for the deterministic seed (COPY): ids are written explicitly.

-- name: SeedPayers :copyfrom
INSERT INTO payer (id, code, name, kind) VALUES ($1, $2, $3, $4);

-- name: SeedPersons :copyfrom
INSERT INTO person (id, employee_no, first_name, last_name, email, phone, department, status,
                    hired_on, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- name: SeedAppointments :copyfrom
INSERT INTO appointment (id, person_id, position_title, department, fte, starts_on, ends_on)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: SeedStipends :copyfrom
INSERT INTO stipend (id, appointment_id, payer_id, amount_cents, currency, starts_on, ends_on)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: SeedFundings :copyfrom
INSERT INTO funding (appointment_id, payer_id, percent) VALUES ($1, $2, $3);

-- name: SeedVacancies :copyfrom
INSERT INTO vacancy (id, title, department, location, employment_type, salary_min_cents,
                     salary_max_cents, status, opens_on, closes_on, description, filled_by,
                     created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14);

-- name: UpsertUser :exec
INSERT INTO app_user (username, password_hash, role) VALUES ($1, $2, $3)
ON CONFLICT (username) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role;
