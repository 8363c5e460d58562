// build.js bundles the SPA twice with esbuild, once per data layer, into
// dist/<variant>/: index.html and assets/ with content-hashed names (what
// the static server marks immutable). The builds differ only in the module
// the alias data-layer names.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// variants maps each build to its data layer.
export const variants = {
  'web-rest': 'src/data/rest.jsx',
  'web-graphql': 'src/data/graphql.jsx',
};

// buildVariant writes dist/<name>/ and returns the assets' paths, relative
// to it.
export async function buildVariant(name, outRoot = path.join(here, 'dist')) {
  const out = path.join(outRoot, name);
  await rm(out, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: here,
    entryPoints: { app: 'src/main.jsx' },
    alias: { 'data-layer': './' + variants[name] },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    // A production build as React's and Apollo's docs have it: their
    // development checks and messages left out.
    define: { 'process.env.NODE_ENV': '"production"' },
    conditions: ['production'],
    outdir: path.join(out, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const assets = Object.keys(result.metafile.outputs).map((p) => path.relative(out, path.resolve(here, p)));
  const js = assets.find((p) => p.endsWith('.js'));
  const css = assets.find((p) => p.endsWith('.css'));
  const html = (await readFile(path.join(here, 'src/index.html'), 'utf8')).replace('{{js}}', '/' + js).replace('{{css}}', '/' + css);
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'index.html'), html);
  return { js, css };
}

// node build.js [folder] builds every variant into folder (dist unless
// given), one subfolder each.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outRoot = path.resolve(process.argv[2] ?? path.join(here, 'dist'));
  for (const name of Object.keys(variants)) {
    const { js, css } = await buildVariant(name, outRoot);
    console.log(`${name}: ${path.join(outRoot, name, 'index.html')}, ${js}, ${css}`);
  }
}
