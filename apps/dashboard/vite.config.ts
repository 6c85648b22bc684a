import { defineConfig } from 'vite';

// Served by the scheduler at /ui: every URL is relative to it. No inline script or style may
// end up in index.html (the dashboard's CSP forbids both), so the module preload polyfill (an
// inline script) is off and every asset is a file of its own.
export default defineConfig({
  base: '/ui/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
});
