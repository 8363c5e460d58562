// Next.js as crudbench measures it: no compression (no other app
// compresses), no X-Powered-By, no ETag of its own (the REST routes' ETag
// is the row's version), paths as the Go router takes them (no redirect
// of a trailing slash), and the route handlers' packages loaded by Node
// from node_modules, not bundled. The workspace's own (node-base,
// crudbench-trpc) are not in the list: they are links out of
// node_modules, which Next bundles whatever the list says — once, in a
// chunk every route shares, so one copy of node-base's pool.js and its
// statement names serves them all (lib/deps.ts); server.js's, Node's,
// opens the pool and prepares nothing.
/** @type {import('next').NextConfig} */
const config = {
  compress: false,
  poweredByHeader: false,
  generateEtags: false,
  skipTrailingSlashRedirect: true,
  serverExternalPackages: [
    '@trpc/server',
    '@apollo/server',
    '@as-integrations/next',
    '@graphql-tools/schema',
    'dataloader',
    'graphql',
    'pg',
    'prom-client',
  ],
};

export default config;
