// The console's pages: Vite + Preact, built by scripts/build.mjs (`npm run build`, which `npm
// start` and the images run) into dist/gateway/console-pages/, which the gateway serves at
// /console/ (gateway/src/routes/console-pages.ts). `npx vite console` serves them for
// development, with /console/api proxied to CONSOLE_API (default: a gateway of `npm start`, or
// the fixture API: `npx tsx console/test/serve-fixture.ts`).
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  // Relative asset URLs: the pages work under /console/ and behind a proxy's path prefix alike.
  base: command === 'build' ? './' : '/console/',
  plugins: [preact({ devToolsEnabled: false, prerender: { enabled: false } })],
  build: {
    // Overridden by scripts/build.mjs (--outDir); this default keeps a stray `vite build` inside dist/.
    outDir: '../dist/gateway/console-pages',
    emptyOutDir: true,
    target: 'es2022',
    // Every asset a file of its own (never a data: URL): the Content-Security-Policy allows only 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 200,
  },
  server: {
    proxy: { '/console/api': { target: process.env.CONSOLE_API ?? 'http://127.0.0.1:8080', changeOrigin: false } },
  },
}));
