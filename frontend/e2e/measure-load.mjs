#!/usr/bin/env node
// Measures the first load in Chromium against a running server:
//   node e2e/measure-load.mjs http://127.0.0.1:8080 [runs]
// For the home page (/) and the trade page (/trade/BTC_USDT), cold (a new
// browser context: empty cache) and warm (the same page loaded again in that
// context), it records first contentful paint and, on the trade page, the
// time until the order book shows a level and the Buy button can be pressed
// for a signed-in trader (the server's market maker must be running so the
// book has levels, and its dev routes on to sign the trader up). It
// prints the median and range of each figure over the runs, and the
// JavaScript bytes the cold home page transferred (as sent: gzipped when the
// server compresses). The README's "First load" figures come from it.
import { chromium } from '@playwright/test'

const base = process.argv[2] ?? 'http://127.0.0.1:8080'
const runs = Number(process.argv[3] ?? 5)
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (xs) => `${Math.round(median(xs))} ms [${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}]`

async function fcp(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const seen = performance.getEntriesByName('first-contentful-paint')[0]
        if (seen) return resolve(seen.startTime)
        new PerformanceObserver((list) => {
          const e = list.getEntriesByName('first-contentful-paint')[0]
          if (e) resolve(e.startTime)
        }).observe({ type: 'paint', buffered: true })
      }),
  )
}

// Time from navigation start until the book has a level and Buy is enabled.
async function tradeUsable(page) {
  await page.getByTestId('book-sell').first().waitFor({ state: 'visible', timeout: 30_000 })
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="order-submit"]')
    return b && !b.hasAttribute('disabled')
  }, undefined, { timeout: 30_000 })
  return page.evaluate(() => performance.now())
}

function uaTime(d = new Date()) {
  const p = (n) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`
}

async function api(path, body) {
  const res = await fetch(`${base}/fe-ex-api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'exchange-client': 'pc', 'exchange-language': 'en_US' },
    body: JSON.stringify({ ...body, uaTime: uaTime(), securityInfo: JSON.stringify({ timestamp: Date.now() }) }),
  })
  const answer = await res.json()
  if (String(answer.code) !== '0') throw new Error(`${path}: ${answer.code} ${answer.msg}`)
  return answer.data
}

// A signed-in trader (the Buy button is the signed-in order form's): a new
// account through the API, its code read from the dev outbox.
async function signIn() {
  const email = `measure-${Date.now().toString(36)}@example.com`
  const password = 'Tenger2026pass'
  await api('/v4/common/emailValidCode', { email, operationType: 1 })
  const outbox = await (await fetch(`${base}/dev/outbox`)).json()
  const code = [...outbox].reverse().find((e) => e.to.includes(email)).code
  await api('/user/register', { email, loginPword: password, code })
  return (await api('/user/login_in', { email, loginPword: password })).token
}

const token = await signIn()
const host = new URL(base).hostname
const browser = await chromium.launch({ executablePath })
const fig = { homeCold: [], homeWarm: [], tradeFcpCold: [], tradeCold: [], tradeFcpWarm: [], tradeWarm: [], homeJS: [] }
try {
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await ctx.newPage()
    const sizes = []
    const onFinished = (req) => {
      // Scripts and the chunks preloaded for them (modulepreload is not a
      // "script" resource), by their file name; the body's bytes as received
      // (gzipped when the server compressed it).
      if (new URL(req.url()).pathname.endsWith('.js')) {
        sizes.push(req.sizes().then((z) => z.responseBodySize, () => 0))
      }
    }
    page.on('requestfinished', onFinished)
    await page.goto(base + '/', { waitUntil: 'load' })
    fig.homeCold.push(await fcp(page))
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(1000)
    page.off('requestfinished', onFinished)
    fig.homeJS.push((await Promise.all(sizes)).reduce((a, b) => a + b, 0) / 1024)
    await page.goto(base + '/', { waitUntil: 'load' })
    fig.homeWarm.push(await fcp(page))
    await ctx.close()

    const tctx = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await tctx.addCookies([{ name: 'token', value: token, domain: host, path: '/' }])
    const tpage = await tctx.newPage()
    await tpage.goto(base + '/trade/BTC_USDT')
    fig.tradeFcpCold.push(await fcp(tpage))
    fig.tradeCold.push(await tradeUsable(tpage))
    await tpage.goto(base + '/trade/BTC_USDT')
    fig.tradeFcpWarm.push(await fcp(tpage))
    fig.tradeWarm.push(await tradeUsable(tpage))
    await tctx.close()
  }
} finally {
  await browser.close()
}
console.log(`runs: ${runs} against ${base}`)
console.log(`home first contentful paint: cold ${fmt(fig.homeCold)}, warm ${fmt(fig.homeWarm)}`)
console.log(`home JavaScript transferred (cold): ${median(fig.homeJS).toFixed(1)} KB`)
console.log(`trade first contentful paint: cold ${fmt(fig.tradeFcpCold)}, warm ${fmt(fig.tradeFcpWarm)}`)
console.log(`trade book and Buy usable: cold ${fmt(fig.tradeCold)}, warm ${fmt(fig.tradeWarm)}`)
