import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const apiPort = process.env.API_PORT ?? '8080';

export default defineConfig({
  plugins: [
    react(),
    {
      name: 'support-email',
      // In development the server is not the one serving index.html, so fill the meta tag here.
      transformIndexHtml: (html, ctx) =>
        ctx.server ? html.replace('<meta name="support-email" content="" />', `<meta name="support-email" content="${process.env.SUPPORT_EMAIL ?? 'support@demo.ua'}" />`) : html,
    },
  ],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
    __BUILD_DATE__: JSON.stringify(new Date().toISOString()),
  },
  // ra-input-rich-text's own copies of the editor core lag behind its extensions; one copy for all.
  resolve: { dedupe: ['@tiptap/core', '@tiptap/pm'] },
  build: { chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': `http://127.0.0.1:${apiPort}` } },
});
