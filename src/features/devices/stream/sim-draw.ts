// Draws a frame of the simulated phone on a canvas, with the same layout the server hit-tests taps against.
import {
  SIM_RECENT_HEIGHT, SIM_RECENTS_TOP, SIM_STATUS_BAR, simIconCell, type SimFrame,
} from '../../../../worker/protocol/devices.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { PRIMARY_COLOR } from '../../../../worker/protocol/constants.ts'

const t = devicesText.viewer

/** Logical screen size per orientation, and the pixel scale per quality (low quality is visibly softer). */
export const simScreenSize = (o: SimFrame['orientation']) => (o === 'portrait' ? { w: 360, h: 640 } : { w: 640, h: 360 })
export const QUALITY_SCALE: Readonly<Record<SimFrame['quality'], number>> = { low: 0.5, medium: 1, high: 2 }

const roundRect = (g: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) => {
  g.beginPath()
  g.roundRect(x, y, w, h, r)
  g.fill()
}

export const drawSimFrame = (g: CanvasRenderingContext2D, f: SimFrame, w: number, h: number): void => {
  g.fillStyle = '#1f2633'
  g.fillRect(0, 0, w, h)
  g.fillStyle = '#ffffff'
  g.font = `${Math.round(h * 0.025)}px sans-serif`
  g.textBaseline = 'middle'
  g.textAlign = 'left'
  g.fillText(f.clock, w * 0.04, h * SIM_STATUS_BAR * 0.5)
  g.textAlign = 'right'
  g.fillText('5G ▮▮▮', w * 0.96, h * SIM_STATUS_BAR * 0.5)
  g.textAlign = 'center'
  if (f.screen === 'home') {
    f.apps.forEach((app, i) => {
      const cell = simIconCell(i, f.orientation)
      const size = Math.min(cell.w * w, cell.h * h) * 0.55
      const cx = (cell.x + cell.w / 2) * w
      const top = cell.y * h + cell.h * h * 0.1
      g.fillStyle = app.color
      roundRect(g, cx - size / 2, top, size, size, size * 0.22)
      g.fillStyle = '#ffffff'
      g.font = `bold ${Math.round(size * 0.45)}px sans-serif`
      g.fillText(app.name.slice(0, 1), cx, top + size / 2)
      g.font = `${Math.round(h * 0.022)}px sans-serif`
      g.fillText(app.name, cx, top + size + h * 0.022)
    })
    return
  }
  if (f.screen === 'recents') {
    g.font = `${Math.round(h * 0.03)}px sans-serif`
    g.fillText(f.recents.length ? t.simRecentsTitle : t.simRecentsEmpty, w / 2, h * (SIM_RECENTS_TOP - 0.02))
    f.recents.forEach((id, i) => {
      const app = f.apps.find((a) => a.id === id)
      const y = (SIM_RECENTS_TOP + i * SIM_RECENT_HEIGHT) * h
      g.fillStyle = app?.color ?? '#888'
      roundRect(g, w * 0.08, y + h * 0.01, w * 0.84, SIM_RECENT_HEIGHT * h - h * 0.02, 12)
      g.fillStyle = '#ffffff'
      g.font = `${Math.round(h * 0.035)}px sans-serif`
      g.fillText(app?.name ?? id, w / 2, y + (SIM_RECENT_HEIGHT * h) / 2)
    })
    return
  }
  const app = f.apps.find((a) => a.id === f.openApp)
  g.fillStyle = app?.color ?? PRIMARY_COLOR
  g.fillRect(0, h * SIM_STATUS_BAR, w, h * 0.09)
  g.fillStyle = '#ffffff'
  g.font = `bold ${Math.round(h * 0.035)}px sans-serif`
  g.fillText(app?.name ?? '', w / 2, h * (SIM_STATUS_BAR + 0.045))
  g.fillStyle = '#f5f6f8'
  g.fillRect(0, h * (SIM_STATUS_BAR + 0.09), w, h)
  g.fillStyle = '#333333'
  g.font = `bold ${Math.round(h * 0.12)}px sans-serif`
  g.fillText(String(f.counter), w / 2, h * 0.4)
  g.font = `${Math.round(h * 0.028)}px sans-serif`
  g.fillText(t.simCounter(f.counter), w / 2, h * 0.52)
  g.fillStyle = '#888888'
  g.fillText(t.simAppHint, w / 2, h * 0.58)
  if (f.text) {
    g.fillStyle = '#333333'
    g.fillText(f.text.slice(-24), w / 2, h * 0.68)
  }
}
