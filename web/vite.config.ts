/// <reference types="vitest/config" />
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { ROUTE_PRELOADS } from './src/app/route-preloads';

const src = fileURLToPath(new URL('./src', import.meta.url));
const contracts = fileURLToPath(new URL('../libs/contracts/src', import.meta.url));
const apiTarget = 'http://127.0.0.1:3000';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes .br and .gz siblings of the hashed text assets. The gateway serves them when the browser
 * accepts the encoding, so nothing is compressed per request and phones download the least.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'district:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter(
        (f) => f.startsWith('assets/') && /\.(js|css|svg|json)$/.test(f),
      );
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await readFile(full);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * ARCHITECTURE.md section 9: gzipped JS for the home route at most 120 KB (issue #15; it was 170 KB). What the first
 * paint of home needs: the entry and the home route with their static imports. zod is not among them (ADR 0023).
 */
const HOME_ROUTE_BUDGET_BYTES = 120 * 1024;

/** Sums the gzipped JS the browser needs to show the home page (entry + home route, with their static imports) and enforces the budget. */
function homeRouteBudget(): Plugin {
  return {
    name: 'district:home-route-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      // Home ships with the entry (src/app/router.tsx); were it split again, its own chunk counts too.
      const home = chunks.find((c) => Object.keys(c.modules).some((id) => id.endsWith('/home-page.tsx')));
      if (!entry || !home) return;
      const needed = new Set<string>();
      const visit = (name: string) => {
        if (needed.has(name)) return;
        needed.add(name);
        const chunk = bundle[name];
        if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      visit(home.fileName);
      let total = 0;
      const sizes: Array<{ file: string; bytes: number; gzipBytes: number }> = [];
      for (const name of needed) {
        const chunk = bundle[name];
        if (chunk?.type !== 'chunk') continue;
        const gzipBytes = zlib.gzipSync(chunk.code, { level: 9 }).length;
        total += gzipBytes;
        sizes.push({ file: name, bytes: Buffer.byteLength(chunk.code), gzipBytes });
      }
      // Read by bench/web/bundle-report.mjs, which writes the checked-in report.
      this.emitFile({
        type: 'asset',
        fileName: 'home-route-size.json',
        source: JSON.stringify(
          { budgetBytes: HOME_ROUTE_BUDGET_BYTES, totalGzipBytes: total, chunks: sizes },
          null,
          2,
        ),
      });
      const kb = (total / 1024).toFixed(1);
      this.info(
        `home route JS: ${needed.size} chunks, ${kb} KB gzipped (budget ${HOME_ROUTE_BUDGET_BYTES / 1024} KB)`,
      );
      if (total > HOME_ROUTE_BUDGET_BYTES)
        this.error(`home route JS is ${kb} KB gzipped, over the ${HOME_ROUTE_BUDGET_BYTES / 1024} KB budget`);
    },
  };
}

/** Where the gateway reads the per-route preloads (a dot folder, like Vite's own manifest: never served). */
const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/**
 * Writes ROUTE_PRELOADS_FILE from src/app/route-preloads.ts: for each route, the URLs of the chunks its first screen
 * needs — each listed module's chunk with its static imports, in load order, minus what index.html already loads
 * (the entry and its imports) — and its first requests. The gateway puts them into that route's page as preload
 * tags (ADR 0024). A listed module without a chunk of its own fails the build: the table would be stale.
 */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'district:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const closure = (start: string, into: string[], skip: ReadonlySet<string>) => {
        if (into.includes(start) || skip.has(start)) return;
        into.push(start);
        const chunk = bundle[start];
        if (chunk?.type === 'chunk') for (const name of chunk.imports) closure(name, into, skip);
      };
      const inHtml: string[] = [];
      closure(entry.fileName, inHtml, new Set());
      const loadedByHtml = new Set(inHtml);
      const routes = ROUTE_PRELOADS.map((route) => {
        const files: string[] = [];
        for (const module of route.modules) {
          const id = path.resolve(root, module);
          // A module that only re-exports (the contract modules) has no facade: its dynamic import loads the chunk holding it.
          const chunk =
            chunks.find((c) => c.facadeModuleId === id) ??
            chunks.find((c) => c.isDynamicEntry && Object.hasOwn(c.modules, id));
          if (!chunk)
            this.error(`route-preloads: ${module} (route ${route.path}) is not the start of a chunk`);
          closure(chunk.fileName, files, loadedByHtml);
        }
        return { path: route.path, modules: files.map((f) => `/${f}`), fetch: [...(route.fetch ?? [])] };
      });
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: `${JSON.stringify({ routes }, null, 2)}\n`,
      });
    },
  };
}

/**
 * React Router's `exports` name only its development build (asserts and warnings included) for browsers; the
 * production build it ships beside it is the same code without them. Builds use that one (tests keep the package's
 * own resolution, see src/testing/render-app.tsx). Both entries share the production build's chunks, so the router
 * context stays one.
 */
const reactRouterDist = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const productionReactRouter = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dist/production/dom-export.mjs') },
];

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), precompress(), homeRouteBudget(), routePreloads()],
  resolve: {
    // The web imports contracts by domain (`@district/contracts/content`, as in the library's `exports`; lint forbids the barrel).
    alias: [
      { find: /^@district\/contracts\/(\w+)$/, replacement: path.join(contracts, '$1', 'index.ts') },
      { find: '@', replacement: src },
      ...(command === 'build' ? productionReactRouter : []),
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/ws': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The gateway serves assets/* with a one-year immutable cache, so every name must carry its content hash.
    assetsDir: 'assets',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // React and the router change rarely: their own chunk stays cached across app deploys.
        codeSplitting: {
          groups: [
            {
              name: 'react-vendor',
              test: /\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser)\//,
            },
          ],
        },
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
}));
