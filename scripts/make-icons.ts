// Renders the app's SVG artwork into the PNGs it ships (run once after changing an SVG: `npx tsx scripts/make-icons.ts`):
// the web app manifest's icons from public/icons/icon.svg (the maskable icon is the same artwork: its subject sits
// inside the safe circle), and the device list's default previews from public/static/default-phone*.svg at twice their
// size (shown 60x108 CSS px, sharp up to a 3.6x screen), and the reference server's demo ad banners from their SVG
// artwork (server/messages/ad-pages.ts). The page shows PNGs: a browser decodes an SVG image as a document of its own
// on the page's main thread, and lays out and rasterises its text there (docs/decisions.md, icons).
import { mkdirSync, readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { chromiumArgs } from '../tests/chromium.ts'
import { bannerSvgs } from '../server/messages/ad-pages.ts'

mkdirSync('server/messages/ad-assets', { recursive: true })
const renders = [
  ...[192, 512].map((size) => ({ svg: readFileSync('public/icons/icon.svg', 'utf8'), png: `public/icons/icon-${size}.png`, width: size, height: size, transparent: false })),
  ...['default-phone', 'default-phone-type'].map((name) => ({ svg: readFileSync(`public/static/${name}.svg`, 'utf8'), png: `public/static/${name}.png`, width: 240, height: 440, transparent: true })),
  ...Object.entries(bannerSvgs()).map(([name, svg]) => ({ svg, png: `server/messages/ad-assets/${name}.png`, width: 600, height: 800, transparent: true })),
]
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs })
for (const { svg, png, width, height, transparent } of renders) {
  const page = await browser.newPage({ viewport: { width, height } })
  const sized = svg.replace(/width="\d+" height="\d+"/, `width="${width}" height="${height}"`)
  await page.setContent(`<body style="margin:0;background:transparent">${sized}</body>`)
  await page.screenshot({ path: png, omitBackground: transparent })
  await page.close()
}
await browser.close()
