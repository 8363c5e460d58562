// Next.js as crudbench measures it: no compression (no other app
// compresses), no X-Powered-By, no ETag of its own (the REST routes' ETag
// is the row's version), paths as the Go router takes them (no redirect
// of a trailing slash), and the workspace's packages loaded by Node as
// they are, not bundled, so that the route handlers run the same
// node-base and crudbench-trpc modules as the other apps.
/** @type {import('next').NextConfig} */
const config = {
  compress: false,
  poweredByHeader: false,
  generateEtags: false,
  skipTrailingSlashRedirect: true,
  serverExternalPackages: [
    '@crudbench/node-base',
    'crudbench-trpc',
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
