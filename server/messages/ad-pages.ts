// The demo ads' own pages outside /api: the pop-up images and the promo page the first ad opens in the ad view.
// Served with a cross-origin resource policy so a tab on another origin (the dev server) may embed them. The images
// are PNGs, as an ad server's are (an SVG with text is laid out and rasterised on the page's main thread: ~40 ms on the
// home's load here), rendered from the SVG artwork below by `scripts/make-icons.ts` into ./ad-assets/; the SVGs stay
// served for data seeded before.
import { readFileSync } from 'node:fs'
import type { App } from '../context.ts'

interface Banner {
  readonly from: string
  readonly to: string
  readonly title: string
  readonly lines: ReadonlyArray<string>
  readonly button: string
}

const banners: Record<string, Banner> = {
  spring: { from: '#3c9cff', to: '#6f5bff', title: '春季焕新', lines: ['性能版月卡 赠10星币', '续费享9折'], button: '立即查看' },
  performance: { from: '#f5a623', to: '#f56a00', title: '性能版特惠', lines: ['Android 12', '月卡低至 69.9 元'], button: '立即购买' },
}

const bannerSvg = (b: Banner): string => `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800" viewBox="0 0 600 800">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${b.from}"/><stop offset="1" stop-color="${b.to}"/></linearGradient></defs>
<rect width="600" height="800" rx="40" fill="url(#g)"/>
<circle cx="520" cy="90" r="140" fill="#fff" opacity="0.12"/><circle cx="60" cy="720" r="180" fill="#fff" opacity="0.1"/>
<rect x="200" y="170" width="200" height="330" rx="28" fill="#fff" opacity="0.95"/><rect x="222" y="200" width="156" height="260" rx="10" fill="${b.from}" opacity="0.35"/>
<text x="300" y="110" font-size="64" font-weight="700" fill="#fff" text-anchor="middle" font-family="'Noto Sans CJK SC','PingFang SC',sans-serif">${b.title}</text>
${b.lines.map((l, i) => `<text x="300" y="${580 + i * 56}" font-size="40" fill="#fff" text-anchor="middle" font-family="'Noto Sans CJK SC','PingFang SC',sans-serif">${l}</text>`).join('')}
<rect x="170" y="680" width="260" height="76" rx="38" fill="#fff"/><text x="300" y="730" font-size="34" font-weight="700" fill="${b.to}" text-anchor="middle" font-family="'Noto Sans CJK SC','PingFang SC',sans-serif">${b.button}</text>
</svg>`

const promoPage = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>春季焕新活动</title><style>body{margin:0;font-family:'Noto Sans CJK SC','PingFang SC',sans-serif;background:#f5f6f8;color:#333}
header{background:linear-gradient(#3c9cff,#6f5bff);color:#fff;padding:32px 20px}h1{margin:0 0 8px;font-size:26px}
section{background:#fff;margin:16px;border-radius:12px;padding:16px;line-height:1.7}</style></head><body>
<header><h1>春季焕新活动</h1><div>活动时间：即日起至月底</div></header>
<section><b>购买性能版月卡</b><br>赠送 10 星币，可用于续费与购买套餐。</section>
<section><b>续费享 9 折</b><br>活动期间续费任意套餐享 9 折优惠，可与优惠券叠加使用。</section>
<section><b>活动说明</b><br>数量有限，先到先得；如有疑问请联系在线客服。</section></body></html>`

/** The demo banners' SVG artwork by name (the PNGs' source). */
export const bannerSvgs = (): Record<string, string> =>
  Object.fromEntries(Object.entries(banners).map(([name, banner]) => [name, bannerSvg(banner)]))

const bannerPngs = new Map<string, Uint8Array<ArrayBuffer>>()
/** A banner's PNG, read once (on first request: `scripts/make-icons.ts` imports this module before the PNGs exist). */
const bannerPng = (name: string): Uint8Array<ArrayBuffer> => {
  if (!bannerPngs.has(name)) bannerPngs.set(name, new Uint8Array(readFileSync(new URL(`./ad-assets/${name}.png`, import.meta.url))))
  return bannerPngs.get(name)!
}

export const registerAdPages = (app: App): void => {
  app.get('/ads/assets/:file{[a-z]+\\.(png|svg)}', (c) => {
    const [name = '', type] = c.req.param('file').split('.')
    const banner = banners[name]
    if (!banner) return c.notFound()
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    c.header('Cache-Control', 'public, max-age=3600')
    if (type === 'png') return c.body(bannerPng(name), 200, { 'Content-Type': 'image/png' })
    return c.body(bannerSvg(banner), 200, { 'Content-Type': 'image/svg+xml; charset=utf-8' })
  })
  app.get('/ads/promo/spring', (c) => {
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    // shown in the app's ad view: the app's own origin may frame it, no one else
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'")
    return c.html(promoPage)
  })
}
