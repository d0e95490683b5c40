// Renders the app's SVG artwork into the PNGs it ships (run once after changing an SVG: `npx tsx scripts/make-icons.ts`):
// the web app manifest's icons from public/icons/icon.svg (the maskable icon is the same artwork: its subject sits
// inside the safe circle), and the device list's default previews from public/static/default-phone*.svg at twice their
// size (shown 60x108 CSS px, sharp up to a 3.6x screen). The page shows PNGs: a browser decodes an SVG image as a
// document of its own on the page's main thread (docs/decisions.md, icons).
import { readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { chromiumArgs } from '../tests/chromium.ts'

const renders = [
  ...[192, 512].map((size) => ({ svg: 'public/icons/icon.svg', png: `public/icons/icon-${size}.png`, width: size, height: size, transparent: false })),
  ...['default-phone', 'default-phone-type'].map((name) => ({ svg: `public/static/${name}.svg`, png: `public/static/${name}.png`, width: 240, height: 440, transparent: true })),
]
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs })
for (const { svg, png, width, height, transparent } of renders) {
  const page = await browser.newPage({ viewport: { width, height } })
  const sized = readFileSync(svg, 'utf8').replace(/width="\d+" height="\d+"/, `width="${width}" height="${height}"`)
  await page.setContent(`<body style="margin:0;background:transparent">${sized}</body>`)
  await page.screenshot({ path: png, omitBackground: transparent })
  await page.close()
}
await browser.close()
