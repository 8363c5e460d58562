package stack

import "slices"

// FrontEnds lists the single-page app's two builds, the front ends the
// page scenarios view beside the htmx site (a site app of Builtin), in
// report order. Each is apps/web's static server serving its build, in
// front of the API row it names in Fronts. They are not in Builtin: they
// answer no contract of their own, so they have no kind, and no API
// scenario drives them.
var FrontEnds = []App{
	{
		Name: "web-rest", Toolchain: ToolchainNode, Package: "web", Main: "server.js", BuildScript: "build",
		RunEnv: []string{"WEB_ROOT=dist/web-rest"}, Fronts: "rest",
		Difference: "React SPA (esbuild) whose data layer is fetch() against the REST contract, served by a static server that passes /api/ to rest",
	},
	{
		Name: "web-graphql", Toolchain: ToolchainNode, Package: "web", Main: "server.js", BuildScript: "build",
		RunEnv: []string{"WEB_ROOT=dist/web-graphql"}, Fronts: "graphql",
		Difference: "React SPA (esbuild) whose data layer is Apollo Client against the GraphQL schema, served by a static server that passes /graphql to graphql",
	},
}

// FindFrontEnd returns the front end called name.
func FindFrontEnd(name string) (App, bool) {
	i := slices.IndexFunc(FrontEnds, func(a App) bool { return a.Name == name })
	if i < 0 {
		return App{}, false
	}
	return FrontEnds[i], true
}

// FrontEndNames lists the names of FrontEnds, in report order.
func FrontEndNames() []string {
	names := make([]string, len(FrontEnds))
	for i, a := range FrontEnds {
		names[i] = a.Name
	}
	return names
}
