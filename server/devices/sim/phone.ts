// The simulated phone's state machine: a home grid of apps, an open app with a tap counter and typed text, recents,
// orientation and quality. Pure: input in, next state out; frames are snapshots of the state.
import {
  simAppAt, simRecentAt, type SimFrame, type SimInput,
} from '../../../worker/protocol/devices.ts'

export const SIM_APPS: SimFrame['apps'] = [
  { id: 'camera', name: '相机', color: '#ff7a45' },
  { id: 'gallery', name: '相册', color: '#36cfc9' },
  { id: 'calculator', name: '计算器', color: '#597ef7' },
  { id: 'clock', name: '时钟', color: '#9254de' },
  { id: 'browser', name: '浏览器', color: '#3c9cff' },
  { id: 'settings', name: '设置', color: '#8c8c8c' },
  { id: 'music', name: '音乐', color: '#f759ab' },
  { id: 'notes', name: '笔记', color: '#fadb14' },
]

export interface SimPhoneState {
  readonly orientation: SimFrame['orientation']
  readonly quality: SimFrame['quality']
  readonly screen: SimFrame['screen']
  readonly openApp: string | null
  readonly recents: ReadonlyArray<string>
  readonly counters: Readonly<Record<string, number>>
  readonly texts: Readonly<Record<string, string>>
}

export const initialPhone: SimPhoneState = {
  orientation: 'portrait', quality: 'medium', screen: 'home', openApp: null, recents: [], counters: {}, texts: {},
}

const open = (state: SimPhoneState, appId: string): SimPhoneState => ({
  ...state,
  screen: 'app',
  openApp: appId,
  recents: [appId, ...state.recents.filter((id) => id !== appId)].slice(0, 5),
})

const MAX_TEXT = 200

export const applyInput = (state: SimPhoneState, input: SimInput): SimPhoneState => {
  switch (input.type) {
    case 'touch': {
      if (state.screen === 'home') {
        const index = simAppAt(input.x, input.y, state.orientation, SIM_APPS.length)
        return index === null ? state : open(state, SIM_APPS[index]!.id)
      }
      if (state.screen === 'recents') {
        const index = simRecentAt(input.y, state.recents.length)
        return index === null ? { ...state, screen: 'home', openApp: null } : open(state, state.recents[index]!)
      }
      const id = state.openApp!
      return { ...state, counters: { ...state.counters, [id]: (state.counters[id] ?? 0) + 1 } }
    }
    case 'key':
      if (input.key === 'home') return { ...state, screen: 'home', openApp: null }
      if (input.key === 'recents') return { ...state, screen: 'recents', openApp: null }
      return state.screen === 'home' ? state : { ...state, screen: 'home', openApp: null }
    case 'text': {
      if (state.screen !== 'app' || !state.openApp) return state
      const id = state.openApp
      return { ...state, texts: { ...state.texts, [id]: ((state.texts[id] ?? '') + input.text).slice(-MAX_TEXT) } }
    }
    case 'rotate':
      return { ...state, orientation: state.orientation === 'portrait' ? 'landscape' : 'portrait' }
    case 'quality':
      return { ...state, quality: input.quality }
    case 'ping':
      return state
  }
}

const clockFormat = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
})

export const frameOf = (state: SimPhoneState, seq: number, now: number): SimFrame => ({
  type: 'frame',
  seq,
  at: now,
  clock: clockFormat.format(new Date(now)),
  orientation: state.orientation,
  quality: state.quality,
  screen: state.screen,
  apps: SIM_APPS,
  openApp: state.openApp,
  recents: state.recents,
  counter: state.openApp ? state.counters[state.openApp] ?? 0 : 0,
  text: state.openApp ? state.texts[state.openApp] ?? '' : '',
})

/** Frames per second the stream sends at each quality. */
export const FPS_BY_QUALITY: Readonly<Record<SimFrame['quality'], number>> = { low: 4, medium: 8, high: 15 }
