import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// The web app lives in src/web; static files (images) in /public; the build goes to dist/web,
// which the Fastify server serves in production.
export default defineConfig({
  root: "src/web",
  publicDir: "../../public",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    // Keep inline data URIs out of the build: the CSP allows scripts from 'self' only.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { "/api": `http://localhost:${process.env.API_PORT ?? "3001"}` },
  },
});
