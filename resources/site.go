// Package resources holds crudbench's non-Go assets, embedded into the
// binaries so that every app runs from a single file and works offline.
package resources

import "embed"

// Templates holds the HTMX site's html/template files under "templates/".
// The site parses them once at start-up; a broken template stops the app
// before it listens instead of failing on the first request.
//
//go:embed templates
var Templates embed.FS

// Static holds the site's static files under "static/": the vendored htmx
// release (see static/VENDORED.md) and the site's own CSS. They are served
// from /static/ with long cache lifetimes, so nothing is fetched from a CDN.
//
//go:embed static
var Static embed.FS
