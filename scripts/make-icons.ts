// Renders public/icons/icon.svg into the PNG icons of the web app manifest (run once after changing the SVG:
// `npx tsx scripts/make-icons.ts`). The maskable icon is the same artwork: its subject sits inside the safe circle.
import { readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { chromiumArgs } from '../tests/chromium.ts'

const svg = readFileSync('public/icons/icon.svg', 'utf8')
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs })
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } })
  await page.setContent(`<body style="margin:0">${svg.replace('width="512" height="512"', `width="${size}" height="${size}"`)}</body>`)
  await page.screenshot({ path: `public/icons/icon-${size}.png`, omitBackground: false })
  await page.close()
}
await browser.close()
