import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build: a static site in dist/console with relative asset paths, so the gateway can serve it
 * at `/` and any static file server can serve it anywhere. verdict's own modules go into a chunk of their own
 * (`verdict-*.js`), which keeps the page's own code measurable apart from the library it runs.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        manualChunks: (id: string) => (/[\\/]src[\\/](?!console[\\/])/.test(id) ? 'verdict' : undefined),
      },
    },
  },
  server: {
    // `npm run dev:console` talks to a gateway running on its default address.
    proxy: { '/v1': process.env.VERDICT_GATEWAY_URL ?? 'http://127.0.0.1:8787' },
  },
});
