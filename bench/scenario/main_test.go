package scenario_test

import (
	"testing"

	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
