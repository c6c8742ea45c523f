// Size budget of the first load: the gzipped JavaScript and CSS that
// dist/index.html loads before the app can render (its entry script, the
// chunks it preloads and its style sheets) and the larger of the two
// languages' text chunks (main.tsx loads the active one before the first
// render). `npm run size` fails when the total is over the budget, so a
// change that pulls a page or a library into the first load is caught in
// CI (make test-web).
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

// The goal is 200 KB; the budget holds what the first load measures now
// (README, "First load") until the rest of the way there is made. 277:
// the earn pages' five lazy routes add their entries (0.4 KB) to it.
const budgetKB = Number(process.env.SIZE_BUDGET_KB ?? 277)
const dist = path.resolve(process.argv[2] ?? 'dist')
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8')
const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
if (refs.length === 0) {
  console.error(`size budget: no assets referenced by ${path.join(dist, 'index.html')}`)
  process.exit(1)
}
const gzipped = (ref) => zlib.gzipSync(fs.readFileSync(path.join(dist, ref)), { level: 9 }).length
let total = 0
const rows = []
for (const ref of new Set(refs)) {
  const gz = gzipped(ref)
  total += gz
  rows.push([ref, gz])
}
const texts = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((f) => /^texts-[a-zA-Z]{2}-[a-zA-Z]{2}-.*\.js$/.test(f))
  .map((f) => ['/assets/' + f, gzipped('/assets/' + f)])
  .sort((a, b) => b[1] - a[1])
if (texts.length < 2) {
  console.error('size budget: the languages\' text chunks are missing (bundled-texts.ts)')
  process.exit(1)
}
total += texts[0][1]
rows.push([texts[0][0] + ' (the larger language)', texts[0][1]])
rows.sort((a, b) => b[1] - a[1])
for (const [ref, gz] of rows) console.log(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${ref}`)
const kb = total / 1024
console.log(`first load: ${kb.toFixed(1)} KB gzipped in ${rows.length} files (budget ${budgetKB} KB)`)
if (kb > budgetKB) {
  console.error(`size budget exceeded by ${(kb - budgetKB).toFixed(1)} KB`)
  process.exit(1)
}
