import { fileURLToPath, URL } from 'node:url'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// The page texts live beside the Go content service so that the server and the
// bundled fallback read the very same files.
const textsDir = fileURLToPath(new URL('../internal/content/texts', import.meta.url))
const srcDir = fileURLToPath(new URL('./src', import.meta.url))

// In development the Go server (`tenger serve`) answers the API, the runtime
// config and the content service; Vite only serves the app.
const backend = process.env.TENGER_BACKEND ?? 'http://127.0.0.1:8080'
const proxied = [
  '/config.json',
  '/graphql',
  '/fe-ex-api',
  '/fe-co-api',
  '/fe-otc-api',
  '/fe-increment-api',
  '/fe-quant-api',
  '/fe-task-api',
  '/dev',
]

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
  ],
  resolve: {
    alias: {
      '@texts': textsDir,
      '@': srcDir,
    },
  },
  server: {
    fs: { allow: ['..'] },
    proxy: {
      ...Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: false }])),
      '/ws': { target: backend.replace(/^http/, 'ws'), ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'initial', tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    globals: true,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // The first render of a Chakra tree in jsdom is slow on a 2-core machine.
    testTimeout: 20000,
  },
})
