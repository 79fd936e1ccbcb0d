import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('./client'),
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@core': here('./core'), '@client': here('./client/src') } },
  build: { outDir: here('./dist/client'), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    proxy: { '/api': { target: 'http://localhost:5000', ws: true } },
  },
});
