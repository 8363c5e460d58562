// Package compose holds the test that keeps docker-compose.yml honest: it
// loads the file with compose-go (no Docker engine needed) and checks the
// promises docs/compose.md makes about it, and the file against the
// runner's table of built-in apps.
package compose
