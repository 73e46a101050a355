import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web UI lives in web/ and builds into dist/web, which the server serves at `/`.
// In development, `npx vite` proxies the API to a running rec-dashboard (REC_DASHBOARD_URL).
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // The strict Content-Security-Policy allows no inline script or style.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // The libraries in a chunk of their own, which changes less often than the app; each
        // view is loaded when first shown (the kinds' pages, search, live: see web/src/app/App.tsx
        // and web/src/kinds/registry.ts).
        codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/ }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: process.env['REC_DASHBOARD_URL'] ?? 'http://127.0.0.1:4800', changeOrigin: false },
    },
  },
});
