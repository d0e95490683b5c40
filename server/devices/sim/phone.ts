// The simulated phone's state machine: an Android-like launcher of apps (计数器, 列表, 输入, 剪贴板, 音乐, 文件 and
// the APKs a user installed), back / home / recents, rotation, a clipboard, the touch that is down, tap ripples and a
// list fling. Pure: a control message and the time in, the next state and what the phone says back out; render.ts
// draws a state. Coordinates are the logical screen's (PHONE_SCREEN, swapped in landscape).
import { STREAM_LIMITS, PHONE_SCREEN } from '../../../worker/protocol/stream.ts'
import type { PhoneOrientation } from '../../../worker/protocol/phone-screen.ts'
import type { ControlMessage } from './control.ts'

export type AppKind = 'counter' | 'list' | 'input' | 'clipboard' | 'music' | 'files' | 'installed'

export interface PhoneApp {
  readonly id: string
  readonly name: string
  readonly kind: AppKind
  readonly color: string
}

export interface PhoneFile {
  readonly name: string
  readonly size: number
}

interface Touch {
  readonly pointerId: bigint
  readonly downX: number
  readonly downY: number
  readonly x: number
  readonly y: number
  readonly at: number
  readonly dragging: boolean
  readonly listFrom: number
  /** list px per ms, from the last move (offset space). */
  readonly velocity: number
}

interface Fling {
  readonly from: number
  readonly velocity: number
  readonly at: number
}

export interface Ripple {
  readonly x: number
  readonly y: number
  readonly at: number
}

export interface PhoneState {
  readonly orientation: PhoneOrientation
  /** 'home', 'recents', or the id of the open app. */
  readonly screen: string
  readonly recents: ReadonlyArray<string>
  readonly apps: ReadonlyArray<PhoneApp>
  readonly files: ReadonlyArray<PhoneFile>
  readonly counter: number
  readonly listOffset: number
  readonly fling: Fling | null
  readonly text: string
  readonly clipboard: string
  readonly music: { readonly playing: boolean; readonly positionMs: number; readonly since: number }
  readonly touch: Touch | null
  readonly ripples: ReadonlyArray<Ripple>
  /** inputs applied (see MARKER in worker/protocol/phone-screen.ts). */
  readonly inputSeq: number
  /** inputs refused (out-of-range coordinates, oversized text). */
  readonly rejected: number
}

/** What the phone says back: device messages to the sender or to every viewer; a keyframe request. */
export type PhoneEffect =
  | { readonly kind: 'clipboard'; readonly text: string; readonly to: 'sender' | 'all' }
  | { readonly kind: 'ackClipboard'; readonly sequence: bigint }
  | { readonly kind: 'keyframe' }

export const BUILT_IN_APPS: ReadonlyArray<PhoneApp> = [
  { id: 'counter', name: '计数器', kind: 'counter', color: '#597ef7' },
  { id: 'list', name: '列表', kind: 'list', color: '#36cfc9' },
  { id: 'input', name: '输入', kind: 'input', color: '#ff7a45' },
  { id: 'clipboard', name: '剪贴板', kind: 'clipboard', color: '#9254de' },
  { id: 'music', name: '音乐', kind: 'music', color: '#f759ab' },
  { id: 'files', name: '文件', kind: 'files', color: '#faad14' },
]

export const MAX_TEXT_CHARS = 500
export const LIST_ROWS = 50
/** the text the 剪贴板 app's 复制 button puts on the clipboard. */
export const COPY_TEXT = '云手机剪贴板：你好，世界'
export const RIPPLE_MS = 300
const FLING_TAU_MS = 325
const FLING_MIN_VELOCITY = 0.02
const TOUCH_SLOP = 24
const SCROLL_STEP = 120
const MAX_APPS = 24
const MAX_FILES = 100

export const initialPhone: PhoneState = {
  orientation: 'portrait', screen: 'home', recents: [], apps: BUILT_IN_APPS, files: [], counter: 0, listOffset: 0, fling: null,
  text: '', clipboard: '', music: { playing: false, positionMs: 0, since: 0 }, touch: null, ripples: [], inputSeq: 0, rejected: 0,
}

// ---- layout (logical px) ----

export const LAYOUT = {
  statusBar: 48,
  navBar: 96,
  titleBar: 96,
  cellHeight: 190,
  gridTop: 88,
  iconSize: 104,
  listRow: 100,
  recentCard: 150,
} as const

export const screenSize = (o: PhoneOrientation): { width: number; height: number } =>
  o === 'portrait' ? { width: PHONE_SCREEN.width, height: PHONE_SCREEN.height } : { width: PHONE_SCREEN.height, height: PHONE_SCREEN.width }

export const gridColumns = (o: PhoneOrientation): number => (o === 'portrait' ? 4 : 7)

/** The centre of an app's icon on the home screen (null when it has no icon). */
export const appIconCenter = (state: Pick<PhoneState, 'orientation' | 'apps'>, appId: string): { x: number; y: number } | null => {
  const index = state.apps.findIndex((a) => a.id === appId)
  if (index < 0) return null
  const { width } = screenSize(state.orientation)
  const cols = gridColumns(state.orientation)
  const cellW = width / cols
  const col = index % cols
  const row = Math.floor(index / cols)
  return { x: cellW * col + cellW / 2, y: LAYOUT.gridTop + row * LAYOUT.cellHeight + LAYOUT.iconSize / 2 + 16 }
}

const appAt = (state: PhoneState, x: number, y: number): PhoneApp | null => {
  const { width } = screenSize(state.orientation)
  const cols = gridColumns(state.orientation)
  const cellW = width / cols
  if (y < LAYOUT.gridTop) return null
  const col = Math.floor(x / cellW)
  const row = Math.floor((y - LAYOUT.gridTop) / LAYOUT.cellHeight)
  return state.apps[row * cols + col] ?? null
}

export const contentTop = LAYOUT.statusBar + LAYOUT.titleBar
export const contentBottom = (o: PhoneOrientation): number => screenSize(o).height - LAYOUT.navBar

/** 剪贴板's 复制 button and 音乐's play button, in logical px. */
export const copyButton = (o: PhoneOrientation) => ({ x: screenSize(o).width / 2 - 150, y: contentTop + 260, width: 300, height: 96 })
export const playButton = (o: PhoneOrientation) => ({ x: screenSize(o).width / 2, y: contentTop + Math.min(420, (contentBottom(o) - contentTop) / 2), r: 80 })
export const textField = (o: PhoneOrientation) => ({ x: 40, y: contentTop + 40, width: screenSize(o).width - 80, height: 200 })

/** which nav button (back / home / recents) a point is on, if any. */
const navAt = (o: PhoneOrientation, x: number, y: number): 'back' | 'home' | 'recents' | null => {
  const { width, height } = screenSize(o)
  if (y < height - LAYOUT.navBar) return null
  const third = Math.floor((x / width) * 3)
  return (['back', 'home', 'recents'] as const)[Math.min(2, Math.max(0, third))]!
}

export const maxListOffset = (o: PhoneOrientation): number =>
  Math.max(0, LIST_ROWS * LAYOUT.listRow - (contentBottom(o) - contentTop))

const clampOffset = (o: PhoneOrientation, v: number): number => Math.min(maxListOffset(o), Math.max(0, v))

export const openApp = (state: PhoneState): PhoneApp | null => state.apps.find((a) => a.id === state.screen) ?? null

// ---- time ----

/** The list offset at `now` (a fling in progress moves it). */
export const listOffsetAt = (state: PhoneState, now: number): number => {
  const f = state.fling
  if (!f) return state.listOffset
  const t = Math.max(0, now - f.at)
  return clampOffset(state.orientation, f.from + f.velocity * FLING_TAU_MS * (1 - Math.exp(-t / FLING_TAU_MS)))
}

const flingDone = (f: Fling, now: number): boolean => Math.abs(f.velocity) * Math.exp(-(now - f.at) / FLING_TAU_MS) < FLING_MIN_VELOCITY

export const musicPositionAt = (state: PhoneState, now: number): number =>
  state.music.playing ? state.music.positionMs + Math.max(0, now - state.music.since) : state.music.positionMs

/** Something on screen moves by itself (frames at the preset's rate); otherwise only the clock does (1 fps). */
export const animating = (state: PhoneState, now: number): boolean =>
  state.ripples.some((r) => now - r.at < RIPPLE_MS) || (state.fling !== null && !flingDone(state.fling, now)) ||
  (state.music.playing && state.screen === 'music')

/** Drops finished ripples and flings (the picture at `now` is the same). */
export const settle = (state: PhoneState, now: number): PhoneState => {
  let next = state
  if (state.ripples.some((r) => now - r.at >= RIPPLE_MS)) next = { ...next, ripples: state.ripples.filter((r) => now - r.at < RIPPLE_MS) }
  if (state.fling && flingDone(state.fling, now)) next = { ...next, listOffset: listOffsetAt(state, now), fling: null }
  return next
}

// ---- navigation ----

const open = (state: PhoneState, appId: string, now: number): PhoneState => ({
  ...state,
  screen: appId,
  recents: [appId, ...state.recents.filter((id) => id !== appId)].slice(0, 6),
  listOffset: appId === 'list' ? listOffsetAt(state, now) : state.listOffset,
  fling: null,
})

const goHome = (state: PhoneState): PhoneState => ({ ...state, screen: 'home', fling: null })
const back = (state: PhoneState): PhoneState => (state.screen === 'home' ? state : goHome(state))
const recents = (state: PhoneState): PhoneState => ({ ...state, screen: state.screen === 'recents' ? 'home' : 'recents', fling: null })

// ---- text ----

const appendText = (state: PhoneState, text: string): PhoneState => {
  if (state.screen !== 'input') return state
  const have = Array.from(state.text)
  const room = MAX_TEXT_CHARS - have.length
  if (room <= 0) return state
  return { ...state, text: have.concat(Array.from(text).slice(0, room)).join('') }
}

const deleteChar = (state: PhoneState): PhoneState =>
  state.screen === 'input' && state.text.length > 0 ? { ...state, text: Array.from(state.text).slice(0, -1).join('') } : state

/** The character a key types (US layout), or null. */
export const keyChar = (keyCode: number, metaState: number): string | null => {
  const shift = (metaState & 0xc1) !== 0
  if (keyCode >= 29 && keyCode <= 54) {
    const c = String.fromCharCode(97 + keyCode - 29)
    return shift ? c.toUpperCase() : c
  }
  if (keyCode >= 7 && keyCode <= 16) return String(keyCode - 7)
  const table: Record<number, string> = { 55: ',', 56: '.', 62: ' ', 69: '-', 70: '=', 71: '[', 72: ']', 73: '\\', 74: ';', 75: "'", 76: '/', 77: '@', 81: '+', 17: '*', 18: '#' }
  return table[keyCode] ?? null
}

export const KEY = { home: 3, back: 4, del: 67, enter: 66, appSwitch: 187 } as const

// ---- taps ----

const inside = (r: { x: number; y: number; width: number; height: number }, x: number, y: number): boolean =>
  x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height

const tap = (state: PhoneState, x: number, y: number, now: number): { state: PhoneState; effects: PhoneEffect[] } => {
  const o = state.orientation
  const nav = navAt(o, x, y)
  if (nav === 'back') return { state: back(state), effects: [] }
  if (nav === 'home') return { state: goHome(state), effects: [] }
  if (nav === 'recents') return { state: recents(state), effects: [] }
  if (y < LAYOUT.statusBar) return { state, effects: [] }
  if (state.screen === 'home') {
    const app = appAt(state, x, y)
    return { state: app ? open(state, app.id, now) : state, effects: [] }
  }
  if (state.screen === 'recents') {
    const index = Math.floor((y - LAYOUT.statusBar - 40) / LAYOUT.recentCard)
    const id = y >= LAYOUT.statusBar + 40 ? state.recents[index] : undefined
    return { state: id ? open(state, id, now) : goHome(state), effects: [] }
  }
  const app = openApp(state)
  if (!app || y < contentTop) return { state, effects: [] }
  switch (app.kind) {
    case 'counter':
      return { state: { ...state, counter: state.counter + 1 }, effects: [] }
    case 'clipboard':
      if (inside(copyButton(o), x, y)) return { state: { ...state, clipboard: COPY_TEXT }, effects: [{ kind: 'clipboard', text: COPY_TEXT, to: 'all' }] }
      return { state, effects: [] }
    case 'music': {
      const b = playButton(o)
      if (Math.hypot(x - b.x, y - b.y) > b.r) return { state, effects: [] }
      const music = state.music.playing
        ? { playing: false, positionMs: musicPositionAt(state, now), since: now }
        : { playing: true, positionMs: state.music.positionMs, since: now }
      return { state: { ...state, music }, effects: [] }
    }
    default:
      return { state, effects: [] }
  }
}

// ---- input ----

export interface Applied {
  readonly state: PhoneState
  readonly effects: ReadonlyArray<PhoneEffect>
}

const counted = (state: PhoneState): PhoneState => ({ ...state, inputSeq: state.inputSeq + 1 })
const refused = (state: PhoneState): Applied => ({ state: { ...state, rejected: state.rejected + 1 }, effects: [] })

/**
 * A point of a touch or scroll in the logical screen, or null when it is out of range: a zero video size, a point
 * outside it, or a video size of the other orientation (a message sent for the picture before a rotation).
 */
const toLogical = (state: PhoneState, x: number, y: number, videoWidth: number, videoHeight: number): { x: number; y: number } | null => {
  if (videoWidth <= 0 || videoHeight <= 0 || x >= videoWidth || y >= videoHeight || x < 0 || y < 0) return null
  if ((videoWidth > videoHeight) !== (state.orientation === 'landscape') || videoWidth === videoHeight) return null
  const { width, height } = screenSize(state.orientation)
  return { x: (x * width) / videoWidth, y: (y * height) / videoHeight }
}

export const applyControl = (start: PhoneState, message: ControlMessage, now: number): Applied => {
  const state = settle(start, now)
  switch (message.type) {
    case 'touch': {
      const at = toLogical(state, message.x, message.y, message.videoWidth, message.videoHeight)
      if (!at) return refused(state)
      const t = state.touch
      if (message.action === 0 || message.action === 5) {
        if (t && t.pointerId !== message.pointerId) return { state: counted(state), effects: [] } // a second finger: no gestures
        const listFrom = listOffsetAt(state, now)
        return {
          state: counted({
            ...state, listOffset: listFrom, fling: null,
            touch: { pointerId: message.pointerId, downX: at.x, downY: at.y, x: at.x, y: at.y, at: now, dragging: false, listFrom, velocity: 0 },
          }),
          effects: [],
        }
      }
      if (!t || t.pointerId !== message.pointerId) return { state, effects: [] }
      if (message.action === 2) {
        const dragging = t.dragging || Math.hypot(at.x - t.downX, at.y - t.downY) > TOUCH_SLOP
        const dt = Math.max(1, now - t.at)
        let next: PhoneState = { ...state, touch: { ...t, x: at.x, y: at.y, at: now, dragging, velocity: -(at.y - t.y) / dt } }
        if (dragging && state.screen === 'list') next = { ...next, listOffset: clampOffset(state.orientation, t.listFrom - (at.y - t.downY)) }
        return { state: counted(next), effects: [] }
      }
      if (message.action === 1 || message.action === 6 || message.action === 3) {
        const released: PhoneState = { ...state, touch: null }
        if (message.action === 3) return { state: released, effects: [] }
        const moved = t.dragging || Math.hypot(at.x - t.downX, at.y - t.downY) > TOUCH_SLOP
        if (!moved) {
          const result = tap(released, t.downX, t.downY, now)
          return { state: { ...result.state, ripples: [...result.state.ripples, { x: t.downX, y: t.downY, at: now }] }, effects: result.effects }
        }
        if (state.screen === 'list' && Math.abs(t.velocity) > 0.3 && now - t.at < 100) {
          return { state: { ...released, fling: { from: state.listOffset, velocity: Math.max(-8, Math.min(8, t.velocity)), at: now } }, effects: [] }
        }
        return { state: released, effects: [] }
      }
      return { state, effects: [] }
    }
    case 'key': {
      if (message.action !== 0) return { state, effects: [] }
      const s = counted(state)
      if (message.repeat > 0 && (message.keyCode === KEY.home || message.keyCode === KEY.appSwitch)) return { state: s, effects: [] }
      switch (message.keyCode) {
        case KEY.back: return { state: back(s), effects: [] }
        case KEY.home: return { state: goHome(s), effects: [] }
        case KEY.appSwitch: return { state: recents(s), effects: [] }
        case KEY.del: return { state: deleteChar(s), effects: [] }
        default: {
          const c = keyChar(message.keyCode, message.metaState)
          return { state: c === null ? s : appendText(s, c), effects: [] }
        }
      }
    }
    case 'text':
      if (message.bytes > STREAM_LIMITS.maxTextBytes) return refused(state)
      return { state: appendText(counted(state), message.text), effects: [] }
    case 'scroll': {
      const at = toLogical(state, message.x, message.y, message.videoWidth, message.videoHeight)
      if (!at) return refused(state)
      const s = counted(state)
      if (state.screen !== 'list') return { state: s, effects: [] }
      return { state: { ...s, listOffset: clampOffset(state.orientation, listOffsetAt(state, now) - message.scrollY * SCROLL_STEP), fling: null }, effects: [] }
    }
    case 'backOrScreenOn':
      return message.action === 0 ? { state: back(counted(state)), effects: [] } : { state, effects: [] }
    case 'getClipboard':
      return { state, effects: [{ kind: 'clipboard', text: state.clipboard, to: 'sender' }] }
    case 'setClipboard': {
      if (message.bytes > STREAM_LIMITS.maxTextBytes) return refused(state)
      let next: PhoneState = { ...counted(state), clipboard: message.text }
      if (message.paste) next = appendText(next, message.text)
      return { state: next, effects: message.sequence !== 0n ? [{ kind: 'ackClipboard', sequence: message.sequence }] : [] }
    }
    case 'rotate': {
      const orientation: PhoneOrientation = state.orientation === 'portrait' ? 'landscape' : 'portrait'
      return { state: counted({ ...state, orientation, touch: null, fling: null, listOffset: clampOffset(orientation, listOffsetAt(state, now)) }), effects: [] }
    }
    case 'resetVideo':
      return { state, effects: [{ kind: 'keyframe' }] }
    case 'other':
      return { state, effects: [] }
  }
}

// ---- what the file routes change ----

export const installApp = (state: PhoneState, name: string): PhoneState => {
  const label = name.replace(/\.apk$/i, '').slice(0, 24) || '应用'
  const id = `apk:${label}`
  if (state.apps.some((a) => a.id === id) || state.apps.length >= MAX_APPS) return state
  const palette = ['#73d13d', '#40a9ff', '#ff4d4f', '#ffc53d', '#b37feb', '#5cdbd3']
  return { ...state, apps: [...state.apps, { id, name: label, kind: 'installed', color: palette[state.apps.length % palette.length]! }] }
}

export const addFile = (state: PhoneState, name: string, size: number): PhoneState =>
  ({ ...state, files: [{ name: name.slice(0, 80), size }, ...state.files.filter((f) => f.name !== name)].slice(0, MAX_FILES) })

const clockFormat = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
})
/** The status bar's clock (Asia/Shanghai, to the second). */
export const clockText = (now: number): string => clockFormat.format(new Date(now))
