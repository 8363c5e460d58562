package db

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"
)

// dummyHash is compared against when the user does not exist, so that a
// wrong username costs as much time as a wrong password (no enumeration).
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("crudbench-no-such-user"), bcrypt.DefaultCost)

// Login limits: longer credentials are refused before any lookup. Bcrypt
// reads at most 72 bytes of a password.
const (
	MaxUsernameLen = 100
	MaxPasswordLen = 72
)

// Authenticate checks a username and password. Wrong ones are EUNAUTHORIZED
// with the same message, whichever was wrong.
func (s *Store) Authenticate(ctx context.Context, username, password string) (User, error) {
	bad := Errorf(EUNAUTHORIZED, "invalid username or password")
	if len(username) > MaxUsernameLen || len(password) > MaxPasswordLen {
		return User{}, bad
	}
	row, err := s.q.GetUserByUsername(ctx, username)
	if errors.Is(err, pgx.ErrNoRows) {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return User{}, bad
	}
	if err != nil {
		return User{}, translate(err)
	}
	if bcrypt.CompareHashAndPassword([]byte(row.PasswordHash), []byte(password)) != nil {
		return User{}, bad
	}
	return User{ID: row.ID, Username: row.Username, Role: Role(row.Role)}, nil
}
