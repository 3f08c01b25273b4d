import { readFileSync, writeFileSync } from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { ENTITIES } from './contract/entities.ts';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const apiPort = process.env.API_PORT ?? '8080';

/**
 * Writes .vite/chunks.json next to the build manifest: which source modules went into which chunk
 * (with their rendered size). The manifest names only entries; this also shows what the bundler
 * merged into shared chunks, for the bundle budget test and `npm run bench:spa`. The server does
 * not serve dot folders, so neither file is public.
 */
function chunkMap(): Plugin {
  let root = process.cwd();
  return {
    name: 'chunk-map',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) =>
        item.type === 'chunk'
          ? [
              {
                file: item.fileName,
                isEntry: item.isEntry,
                isDynamicEntry: item.isDynamicEntry,
                modules: Object.fromEntries(
                  Object.entries(item.modules).map(([id, m]) => [path.relative(root, id.replace(/^\0/, '')).split(path.sep).join('/'), m.renderedLength]),
                ),
              },
            ]
          : [],
      );
      this.emitFile({ type: 'asset', fileName: '.vite/chunks.json', source: JSON.stringify({ chunks }) });
    },
  };
}

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every script, style sheet and SVG of the
 * build, which the server sends to browsers that accept them (@fastify/static `preCompressed`):
 * compressed once at build time at the highest level, instead of on every request.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const item of Object.values(bundle)) {
        if (!/\.(js|css|svg)$/.test(item.fileName) || item.fileName.startsWith('.vite/')) continue;
        const file = path.join(options.dir!, item.fileName);
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * `virtual:declared-screens`: the screens of the declared entities that declare one
 * (`screen` in contract/, docs/adding-an-entity.md) — name, permission area, path, sidebar item,
 * old addresses, Ukrainian words — without their schemas, which the screen loads when it opens. The first screen's JavaScript needs only these
 * few words to build the routes and the menu. A change of a declaration's screen needs a restart
 * of the dev server.
 */
export function declaredScreens(): Plugin {
  const id = 'virtual:declared-screens';
  return {
    name: 'declared-screens',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const screens = ENTITIES.flatMap((e) => (e.screen ? [{ name: e.name, area: e.area, ...e.screen, texts: e.texts }] : []));
      return `export const DECLARED_SCREENS = ${JSON.stringify(screens)};`;
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    declaredScreens(),
    chunkMap(),
    precompress(),
    {
      name: 'support-email',
      // In development the server is not the one serving index.html, so fill the meta tag here.
      transformIndexHtml: (html, ctx) =>
        ctx.server
          ? html.replace(
              '<meta name="support-email" content="" />',
              `<meta name="support-email" content="${process.env.SUPPORT_EMAIL ?? 'support@demo.ua'}" />`,
            )
          : html,
    },
  ],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
    __BUILD_DATE__: JSON.stringify(new Date().toISOString()),
  },
  // ra-input-rich-text's own copies of the editor core lag behind its extensions; one copy for all.
  resolve: { dedupe: ['@tiptap/core', '@tiptap/pm'] },
  // The manifest maps every source entry (index.html, each lazy screen) to its chunks.
  build: {
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // prop-types: needed at run time only by the date pickers' modules (lazy screens), not by the first screen.
            { name: 'prop-types', test: /node_modules[\\/]prop-types[\\/]/, priority: 3, includeDependenciesRecursively: false },
            // React itself changes only with an upgrade: its own long-cached file.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            // The other libraries the first screen needs, in two files instead of dozens, apart from
            // the app's own code, which changes with every release. Libraries that only lazy
            // screens use stay in the chunks of those screens.
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|stylis)[\\/]/, tags: ['$initial'], priority: 1 },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 0 },
            // The app's own modules of the first screen in one file, besides the entry's (the entry
            // itself stays out: it must remain index.html's script).
            {
              name: 'app',
              test: (id) => !/node_modules[\\/]|index\.html|[\\/]src[\\/]main\.tsx$/.test(id),
              tags: ['$initial'],
              priority: -1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': `http://127.0.0.1:${apiPort}` } },
});
