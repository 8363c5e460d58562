-- name: GetUserByUsername :one
SELECT * FROM app_user WHERE username = $1;
