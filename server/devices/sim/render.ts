// Draws a phone state into RGBA pixels of the stream's frame size (Skia through @napi-rs/canvas): status bar, the
// screen of the moment, the navigation bar, tap ripples and the input marker (worker/protocol/phone-screen.ts).
import { existsSync } from 'node:fs'
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas'
import { MARKER_CELLS, markerCellSize } from '../../../worker/protocol/phone-screen.ts'
import {
  appIconCenter, clockText, contentBottom, contentTop, copyButton, gridColumns, LAYOUT, LIST_ROWS, listOffsetAt, musicPositionAt, openApp,
  playButton, RIPPLE_MS, screenSize, textField, type PhoneState,
} from './phone.ts'

const CJK_FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf',
  '/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
]
const FAMILY = 'PhoneSans'
let fontsReady = false
/** the CJK font found, if any (without one Chinese text is drawn in the default font's fallback glyphs). */
export let cjkFont: string | null = null

const ensureFonts = (): void => {
  if (fontsReady) return
  fontsReady = true
  for (const path of CJK_FONTS) {
    try {
      if (existsSync(path) && GlobalFonts.registerFromPath(path, FAMILY)) {
        cjkFont = path
        return
      }
    } catch {
      // an unreadable font: try the next
    }
  }
}

const font = (px: number, weight = ''): string => `${weight ? `${weight} ` : ''}${px}px ${FAMILY}, "DejaVu Sans", sans-serif`

export interface Renderer {
  /** RGBA bytes (width * height * 4) of the state at `now`, drawn at width x height. */
  render(state: PhoneState, now: number, width: number, height: number): Uint8Array
  /** the state at `now` drawn at width x height and encoded as a still (the wall's thumbnail; THUMBNAIL in stream.ts). */
  still(state: PhoneState, now: number, width: number, height: number, format: 'jpeg' | 'webp', quality: number): Uint8Array
}

export const createRenderer = (): Renderer => {
  ensureFonts()
  let canvas: Canvas | null = null
  let ctx: SKRSContext2D | null = null
  // a still (a thumbnail) has no input marker and a clock to the minute: an idle phone's picture changes once a minute
  const draw = (state: PhoneState, now: number, width: number, height: number, marker: boolean): Canvas => {
    if (!canvas || canvas.width !== width || canvas.height !== height) {
      canvas = createCanvas(width, height)
      ctx = canvas.getContext('2d', { alpha: false })
    }
    const g = ctx!
    const { width: lw } = screenSize(state.orientation)
    const scale = width / lw
    g.setTransform(scale, 0, 0, scale, 0, 0)
    drawPhone(g, state, now, !marker)
    g.setTransform(1, 0, 0, 1, 0, 0)
    if (marker) drawMarker(g, state.inputSeq, width, height)
    return canvas
  }
  return {
    render: (state, now, width, height) => draw(state, now, width, height, true).data(),
    still: (state, now, width, height, format, quality) => {
      const c = draw(state, now, width, height, false)
      return format === 'webp' ? c.encodeSync('webp', quality) : c.encodeSync('jpeg', quality)
    },
  }
}

const drawMarker = (g: SKRSContext2D, inputSeq: number, width: number, height: number): void => {
  const cell = markerCellSize(width, height)
  const value = inputSeq & 0xff
  for (let i = 0; i < MARKER_CELLS; i++) {
    g.fillStyle = (value >> (MARKER_CELLS - 1 - i)) & 1 ? '#ffffff' : '#000000'
    g.fillRect(i * cell, 0, cell, cell)
  }
}

const drawPhone = (g: SKRSContext2D, state: PhoneState, now: number, minuteClock = false): void => {
  const { width, height } = screenSize(state.orientation)
  g.fillStyle = state.screen === 'home' || state.screen === 'recents' ? '#1d3557' : '#f5f5f5'
  g.fillRect(0, 0, width, height)
  if (state.screen === 'home') drawHome(g, state)
  else if (state.screen === 'recents') drawRecents(g, state)
  else drawApp(g, state, now)
  drawStatusBar(g, width, now, minuteClock)
  drawNavBar(g, width, height)
  for (const r of state.ripples) {
    const t = (now - r.at) / RIPPLE_MS
    if (t < 0 || t >= 1) continue
    g.fillStyle = `rgba(120, 120, 120, ${0.45 * (1 - t)})`
    g.beginPath()
    g.arc(r.x, r.y, 20 + 60 * t, 0, Math.PI * 2)
    g.fill()
  }
}

const drawStatusBar = (g: SKRSContext2D, width: number, now: number, minuteClock: boolean): void => {
  g.fillStyle = '#111111'
  g.fillRect(0, 0, width, LAYOUT.statusBar)
  g.fillStyle = '#ffffff'
  g.font = font(26)
  g.textBaseline = 'middle'
  g.textAlign = 'center'
  g.fillText(minuteClock ? clockText(now).slice(0, 5) : clockText(now), width / 2, LAYOUT.statusBar / 2)
  // battery: 87 %
  const bx = width - 110
  g.strokeStyle = '#ffffff'
  g.lineWidth = 2
  g.strokeRect(bx, 14, 44, 20)
  g.fillRect(bx + 44, 20, 4, 8)
  g.fillStyle = '#52c41a'
  g.fillRect(bx + 3, 17, 38 * 0.87, 14)
  g.fillStyle = '#ffffff'
  g.textAlign = 'left'
  g.font = font(20)
  g.fillText('87%', bx + 54, LAYOUT.statusBar / 2)
}

const drawNavBar = (g: SKRSContext2D, width: number, height: number): void => {
  const top = height - LAYOUT.navBar
  g.fillStyle = '#000000'
  g.fillRect(0, top, width, LAYOUT.navBar)
  g.strokeStyle = '#dddddd'
  g.fillStyle = '#dddddd'
  g.lineWidth = 4
  const cy = top + LAYOUT.navBar / 2
  const third = width / 3
  // back ◁
  g.beginPath()
  g.moveTo(third / 2 + 14, cy - 18)
  g.lineTo(third / 2 - 16, cy)
  g.lineTo(third / 2 + 14, cy + 18)
  g.closePath()
  g.stroke()
  // home ○
  g.beginPath()
  g.arc(third * 1.5, cy, 20, 0, Math.PI * 2)
  g.stroke()
  // recents □
  g.strokeRect(third * 2.5 - 17, cy - 17, 34, 34)
}

const drawHome = (g: SKRSContext2D, state: PhoneState): void => {
  const cols = gridColumns(state.orientation)
  const cellW = screenSize(state.orientation).width / cols
  g.textAlign = 'center'
  g.textBaseline = 'middle'
  for (const app of state.apps) {
    const c = appIconCenter(state, app.id)!
    const s = LAYOUT.iconSize
    g.fillStyle = app.color
    roundRect(g, c.x - s / 2, c.y - s / 2, s, s, 24)
    g.fill()
    g.fillStyle = '#ffffff'
    g.font = font(44, 'bold')
    g.fillText(Array.from(app.name)[0] ?? '?', c.x, c.y)
    g.font = font(26)
    g.fillText(fit(g, app.name, cellW - 12), c.x, c.y + s / 2 + 28)
  }
}

const drawRecents = (g: SKRSContext2D, state: PhoneState): void => {
  const { width } = screenSize(state.orientation)
  g.textBaseline = 'middle'
  g.textAlign = 'left'
  if (state.recents.length === 0) {
    g.fillStyle = '#ffffff'
    g.font = font(30)
    g.textAlign = 'center'
    g.fillText('没有最近的应用', width / 2, 300)
    return
  }
  state.recents.forEach((id, i) => {
    const app = state.apps.find((a) => a.id === id)
    if (!app) return
    const y = LAYOUT.statusBar + 40 + i * LAYOUT.recentCard
    g.fillStyle = '#ffffff'
    roundRect(g, 40, y, width - 80, LAYOUT.recentCard - 24, 20)
    g.fill()
    g.fillStyle = app.color
    roundRect(g, 64, y + 23, 80, 80, 16)
    g.fill()
    g.fillStyle = '#222222'
    g.font = font(32)
    g.fillText(app.name, 170, y + (LAYOUT.recentCard - 24) / 2)
  })
}

const drawApp = (g: SKRSContext2D, state: PhoneState, now: number): void => {
  const app = openApp(state)
  const { width, height } = screenSize(state.orientation)
  const o = state.orientation
  g.fillStyle = app?.color ?? '#888888'
  g.fillRect(0, LAYOUT.statusBar, width, LAYOUT.titleBar)
  g.fillStyle = '#ffffff'
  g.font = font(36, 'bold')
  g.textAlign = 'left'
  g.textBaseline = 'middle'
  g.fillText(app?.name ?? '', 32, LAYOUT.statusBar + LAYOUT.titleBar / 2)
  if (!app) return
  const bottom = contentBottom(o)
  g.fillStyle = '#222222'
  switch (app.kind) {
    case 'counter': {
      g.textAlign = 'center'
      g.font = font(200, 'bold')
      g.fillText(String(state.counter), width / 2, (contentTop + bottom) / 2)
      g.font = font(30)
      g.fillStyle = '#666666'
      g.fillText('轻触任意位置加一', width / 2, bottom - 80)
      break
    }
    case 'list': {
      const offset = listOffsetAt(state, now)
      g.save()
      g.beginPath()
      g.rect(0, contentTop, width, bottom - contentTop)
      g.clip()
      const first = Math.floor(offset / LAYOUT.listRow)
      g.font = font(34)
      g.textAlign = 'left'
      for (let i = first; i < LIST_ROWS; i++) {
        const y = contentTop + i * LAYOUT.listRow - offset
        if (y > bottom) break
        g.fillStyle = i % 2 === 0 ? '#ffffff' : '#e6f4ff'
        g.fillRect(0, y, width, LAYOUT.listRow)
        g.fillStyle = `hsl(${(i * 37) % 360}, 70%, 55%)`
        g.fillRect(24, y + 20, 60, 60)
        g.fillStyle = '#222222'
        g.fillText(`第 ${i + 1} 行`, 110, y + LAYOUT.listRow / 2)
      }
      g.restore()
      break
    }
    case 'input': {
      const f = textField(o)
      g.fillStyle = '#ffffff'
      g.fillRect(f.x, f.y, f.width, f.height)
      g.strokeStyle = '#1677ff'
      g.lineWidth = 3
      g.strokeRect(f.x, f.y, f.width, f.height)
      g.font = font(32)
      g.textAlign = 'left'
      g.textBaseline = 'top'
      const lines = wrap(g, state.text, f.width - 32)
      const shown = lines.slice(-5)
      shown.forEach((line, i) => {
        g.fillStyle = '#222222'
        g.fillText(line, f.x + 16, f.y + 16 + i * 36)
      })
      // the caret
      const last = shown[shown.length - 1] ?? ''
      const cx = f.x + 16 + g.measureText(last).width + 2
      g.fillStyle = '#1677ff'
      g.fillRect(cx, f.y + 16 + Math.max(0, shown.length - 1) * 36, 3, 34)
      g.textBaseline = 'middle'
      g.fillStyle = '#666666'
      g.font = font(26)
      g.fillText(`${Array.from(state.text).length} / 500`, f.x, f.y + f.height + 36)
      break
    }
    case 'clipboard': {
      g.font = font(28)
      g.textAlign = 'left'
      g.fillStyle = '#666666'
      g.fillText('剪贴板内容：', 40, contentTop + 50)
      g.fillStyle = '#222222'
      g.font = font(32)
      wrap(g, state.clipboard || '（空）', width - 80).slice(0, 4).forEach((line, i) => g.fillText(line, 40, contentTop + 100 + i * 38))
      const b = copyButton(o)
      g.fillStyle = '#9254de'
      roundRect(g, b.x, b.y, b.width, b.height, 20)
      g.fill()
      g.fillStyle = '#ffffff'
      g.textAlign = 'center'
      g.font = font(36, 'bold')
      g.fillText('复制', b.x + b.width / 2, b.y + b.height / 2)
      break
    }
    case 'music': {
      const b = playButton(o)
      const position = musicPositionAt(state, now)
      // equaliser bars, moving while it plays
      for (let i = 0; i < 12; i++) {
        const h = state.music.playing ? 30 + 60 * Math.abs(Math.sin(position / 180 + i * 0.8)) : 20
        g.fillStyle = '#f759ab'
        g.fillRect(width / 2 - 180 + i * 30, b.y - b.r - 40 - h, 20, h)
      }
      g.fillStyle = '#f759ab'
      g.beginPath()
      g.arc(b.x, b.y, b.r, 0, Math.PI * 2)
      g.fill()
      g.fillStyle = '#ffffff'
      if (state.music.playing) {
        g.fillRect(b.x - 28, b.y - 32, 18, 64)
        g.fillRect(b.x + 10, b.y - 32, 18, 64)
      } else {
        g.beginPath()
        g.moveTo(b.x - 22, b.y - 36)
        g.lineTo(b.x + 36, b.y)
        g.lineTo(b.x - 22, b.y + 36)
        g.closePath()
        g.fill()
      }
      const seconds = Math.floor(position / 1000)
      g.fillStyle = '#222222'
      g.textAlign = 'center'
      g.font = font(30)
      g.fillText(`${state.music.playing ? '正在播放' : '已暂停'}  ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`, width / 2, b.y + b.r + 50)
      break
    }
    case 'files': {
      g.textAlign = 'left'
      g.font = font(30)
      if (state.files.length === 0) {
        g.fillStyle = '#666666'
        g.fillText('还没有文件', 40, contentTop + 60)
      }
      state.files.slice(0, Math.floor((bottom - contentTop) / 90)).forEach((file, i) => {
        const y = contentTop + i * 90
        g.fillStyle = i % 2 === 0 ? '#ffffff' : '#fafafa'
        g.fillRect(0, y, width, 90)
        g.fillStyle = '#222222'
        g.fillText(fit(g, file.name, width - 260), 40, y + 45)
        g.fillStyle = '#666666'
        g.textAlign = 'right'
        g.fillText(formatSize(file.size), width - 40, y + 45)
        g.textAlign = 'left'
      })
      break
    }
    case 'installed': {
      g.textAlign = 'center'
      g.font = font(40)
      g.fillText(app.name, width / 2, (contentTop + bottom) / 2 - 30)
      g.font = font(28)
      g.fillStyle = '#666666'
      g.fillText('已安装的应用', width / 2, (contentTop + bottom) / 2 + 30)
      break
    }
  }
  void height
}

const formatSize = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`

const roundRect = (g: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void => {
  g.beginPath()
  g.roundRect(x, y, w, h, r)
}

const fit = (g: SKRSContext2D, text: string, max: number): string => {
  if (g.measureText(text).width <= max) return text
  const chars = Array.from(text)
  while (chars.length > 1 && g.measureText(`${chars.join('')}…`).width > max) chars.pop()
  return `${chars.join('')}…`
}

const wrap = (g: SKRSContext2D, text: string, max: number): string[] => {
  const lines: string[] = []
  let line = ''
  for (const ch of Array.from(text)) {
    if (ch === '\n' || g.measureText(line + ch).width > max) {
      lines.push(line)
      line = ch === '\n' ? '' : ch
    } else line += ch
  }
  lines.push(line)
  return lines
}
