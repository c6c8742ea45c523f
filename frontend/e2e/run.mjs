#!/usr/bin/env node
// Runs the browser end-to-end suite against a fresh `tenger serve`.
//
// Steps: build the web app (so the server serves the current code), build the
// Go binary, start it on a free port with an empty data directory and the dev
// simulators on, wait for /healthz, run Playwright, then stop the server, run
// `tenger audit` on its data (every journey's money moves must audit clean:
// engine and store agree, postings add up to the balances; an unclean audit
// fails the run) and remove the data. Every run starts from an empty store,
// so tests never depend on leftovers from an earlier run.
//
// Environment:
//   E2E_SKIP_WEB_BUILD=1  serve a copy of frontend/dist as it is (faster when iterating)
//   CHROMIUM_PATH         the browser to drive (default /usr/bin/chromium)
//   E2E_KEEP_DATA=1       keep the server's data directory and log for inspection
//   E2E_RETRIES           retries of a failed test (default 1, see playwright.config.ts)
// The last lines printed are a summary of failed and flaky tests (from
// Playwright's JSON report), after the server log's tail on a failure.
// Extra arguments are passed to `playwright test` (e.g. a file name or --grep).
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const frontendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const repoRoot = path.resolve(frontendDir, '..')
const work = mkdtempSync(path.join(tmpdir(), 'tenger-e2e-'))
const dataDir = path.join(work, 'data')
const binary = path.join(work, 'tenger')
const serverLog = path.join(work, 'server.log')
const webDir = path.join(work, 'web')
const jsonReport = path.join(work, 'report.json')
const started = Date.now()

function elapsed() {
  return `${((Date.now() - started) / 1000).toFixed(1)}s`
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...opts })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${signal ?? code}`))
    })
  })
}

// Walks Playwright's JSON report: every test whose outcome is not expected,
// with where it is and the first lines of its last error.
function summarize(reportPath) {
  if (!existsSync(reportPath)) return null
  let report
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'))
  } catch (err) {
    return `[e2e] the JSON report could not be read: ${err.message}`
  }
  const failed = []
  const flaky = []
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} ${[...titles, spec.title].join(' › ')}`
        if (t.status === 'flaky') flaky.push(name)
        if (t.status === 'unexpected') {
          const last = t.results?.[t.results.length - 1]
          const message = (last?.error?.message ?? last?.errors?.[0]?.message ?? '')
            .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
            .split('\n')
            .filter((l) => l.trim() !== '')
            .slice(0, 6)
            .map((l) => `      ${l}`)
            .join('\n')
          failed.push(`${name}\n${message}`)
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles)
  }
  for (const suite of report.suites ?? []) walk(suite, [])
  const s = report.stats ?? {}
  const lines = [
    `[e2e] summary: ${s.expected ?? 0} passed, ${s.unexpected ?? 0} failed, ${s.flaky ?? 0} flaky (passed on retry), ${s.skipped ?? 0} skipped`,
  ]
  for (const f of failed) lines.push(`[e2e] FAILED ${f}`)
  for (const f of flaky) lines.push(`[e2e] FLAKY ${f}`)
  return lines.join('\n')
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

async function waitHealthy(baseURL, server, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`tenger serve exited early with ${server.exitCode}`)
    try {
      const res = await fetch(`${baseURL}/healthz`)
      if (res.ok) return
    } catch {
      // Not listening yet; try again shortly.
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`tenger serve did not become healthy within ${timeoutMs} ms`)
}

function stop(server) {
  return new Promise((resolve) => {
    if (!server || server.exitCode !== null || server.signalCode !== null) return resolve()
    const timer = setTimeout(() => server.kill('SIGKILL'), 5000)
    server.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    server.kill('SIGTERM')
  })
}

let server
let exitCode = 1
try {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(chromium)) {
    throw new Error(`no Chromium at ${chromium}: install it with 'apt-get install -y chromium' (or set CHROMIUM_PATH)`)
  }
  // The app is built into the run's own directory: a build elsewhere (a
  // developer's `npm run build`, another suite) empties frontend/dist and
  // would pull the pages from under the running tests.
  if (process.env.E2E_SKIP_WEB_BUILD === '1' && existsSync(path.join(frontendDir, 'dist', 'index.html'))) {
    cpSync(path.join(frontendDir, 'dist'), webDir, { recursive: true })
  } else {
    console.log('[e2e] building the web app')
    await run(
      path.join(frontendDir, 'node_modules', '.bin', 'vite'),
      ['build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: frontendDir,
      },
    )
  }
  console.log(`[e2e] building tenger (${elapsed()})`)
  await run('go', ['build', '-o', binary, './cmd/tenger'], { cwd: repoRoot })

  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  const log = openSync(serverLog, 'a')
  console.log(`[e2e] starting tenger serve on ${baseURL} (${elapsed()})`)
  const args = [
    'serve',
    '--addr',
    `127.0.0.1:${port}`,
    '--data',
    dataDir,
    '--dev',
    '--web',
    webDir,
    // Every journey signs up and verifies from 127.0.0.1: the suite sends
    // more codes an hour than one address may in production (50).
    '--code-ip-limit',
    '1000',
  ]
  server = spawn(binary, args, {
    cwd: repoRoot,
    stdio: ['ignore', log, log],
  })
  await waitHealthy(baseURL, server, 30_000)

  console.log(`[e2e] running playwright (${elapsed()})`)
  const playwright = path.join(frontendDir, 'node_modules', '.bin', 'playwright')
  await run(playwright, ['test', ...process.argv.slice(2)], {
    cwd: frontendDir,
    env: {
      ...process.env,
      E2E_BASE_URL: baseURL,
      E2E_JSON_REPORT: jsonReport,
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    },
  })
  exitCode = 0
} catch (err) {
  console.error(`[e2e] ${err.message}`)
  if (existsSync(serverLog)) {
    const tail = readFileSync(serverLog, 'utf8').split('\n').slice(-20).join('\n')
    console.error(`[e2e] last lines of the server log:\n${tail}`)
  }
} finally {
  const summary = summarize(jsonReport)
  if (summary) console.log(summary)
  await stop(server)
  if (server && existsSync(dataDir)) {
    console.log(`[e2e] tenger audit of the run's data (${elapsed()})`)
    try {
      await run(binary, ['audit', '--data', dataDir], { cwd: repoRoot })
    } catch (err) {
      console.error(`[e2e] ${err.message}: the suite's money moves do not audit clean`)
      exitCode = 1
    }
  }
  if (process.env.E2E_KEEP_DATA === '1') console.log(`[e2e] kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
  console.log(`[e2e] done in ${elapsed()}`)
}
process.exit(exitCode)
