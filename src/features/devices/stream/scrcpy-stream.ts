// The phone's real picture: the core owns the stream socket and hands this tab's decoder worker a port of its own;
// this module owns the canvas (transferred to the worker), turns the customer's pointer, keys and text into scrcpy
// control messages for the core, and folds the worker's and the core's reports into status and stats. With sound on,
// the core also sends the phone's audio channel to the decoder worker, whose PCM plays here (pcm-player.ts).
import { transfer } from 'comlink'
import { AndroidKeyCode, AndroidKeyEventAction, AndroidMotionEventAction, ScrcpyControlMessageSerializer, ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy'
import type { ConnectReady } from '../../../../worker/protocol/devices.ts'
import type { CoreToTab, TabToCore } from '../../../../worker/protocol/stream-ports.ts'
import { PRESET_SETTINGS, STREAM_PRESETS, type StreamPreset } from '../../../../worker/protocol/stream.ts'
import type { CoreClient } from '../../../core/types.ts'
import { parseDeviceMessage } from './device-messages.ts'
import type { DecoderIn, DecoderOut } from './decoder-messages.ts'
import { makeAutoQuality } from './auto-quality.ts'
import { createMoveCoalescer } from './move-coalescer.ts'
import { createPcmPlayer, soundChoice } from './pcm-player.ts'
import { emptyStats, type DeviceStream, type MirrorState, type NavKey, type Quality, type StreamStats, type StreamStatus } from './types.ts'

const KEYS: Readonly<Record<NavKey, number>> = { back: AndroidKeyCode.AndroidBack, home: AndroidKeyCode.AndroidHome, recents: AndroidKeyCode.AndroidAppSwitch }
/** scrcpy's pointer id of a mouse (-1 as u64); touch pointers use their own ids. */
const MOUSE_POINTER_ID = 0xffff_ffff_ffff_ffffn
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

export interface ScrcpyStreamOptions {
  /** read the phone's input marker from every decoded frame (tests and the bench). */
  readonly probe?: boolean
  readonly preset?: StreamPreset
}

export const createScrcpyStream = (result: ConnectReady, core: CoreClient, options: ScrcpyStreamOptions = {}): DeviceStream => {
  const statsListeners = new Set<(s: StreamStats) => void>()
  const statusListeners = new Set<(s: StreamStatus) => void>()
  const clipboardListeners = new Set<(text: string) => void>()
  const mirrorListeners = new Set<(m: MirrorState) => void>()
  let mirror: ReadonlyArray<number> = []
  const serializer = new ScrcpyControlMessageSerializer(new ScrcpyOptions3_3_1({ control: true, clipboardAutosync: true }))
  let canvas: HTMLCanvasElement | null = null
  let worker: Worker | null = null
  let control: MessagePort | null = null
  let viewerId: number | null = null
  let closed = false
  let stats: StreamStats = emptyStats
  let quality: Quality = options.preset ?? 'auto'
  let preset: StreamPreset = options.preset ?? 'sd'
  let decoderErrors: number[] = []
  const nextAutoPreset = makeAutoQuality()
  let snapshotId = 0
  const snapshots = new Map<number, (png: Blob | null) => void>()
  let stopReattach: () => void = () => {}
  let soundOn = soundChoice()
  const player = createPcmPlayer()
  const onVisibility = () => {
    // a tab shown again gets the cached keyframe from the core; until its first frame the picture is not live
    if (document.visibilityState === 'visible') emitStatus({ kind: 'opening' })
  }

  const emitStatus = (s: StreamStatus) => statusListeners.forEach((l) => l(s))
  const setStats = (patch: Partial<StreamStats>) => {
    stats = { ...stats, ...patch }
    statsListeners.forEach((l) => l(stats))
  }
  const toCore = (message: TabToCore) => control?.postMessage(message)
  const sendControl = (bytes: Uint8Array | undefined) => bytes && toCore({ t: 'control', bytes })

  const onCoreMessage = (message: CoreToTab) => {
    switch (message.t) {
      case 'status':
        if (message.state === 'closed') return emitStatus({ kind: 'closed', reason: message.reason ?? 'lost' })
        if (message.state === 'reconnecting') return emitStatus({ kind: 'reconnecting' })
        // live is announced by the decoder's first frame: a stream that is up but not yet painted is still opening
        if (message.state === 'opening') emitStatus({ kind: 'opening' })
        return
      case 'latency':
        return setStats({ latencyMs: message.ms })
      case 'bitrate':
        return setStats({ bytesPerSecond: message.bytesPerSecond })
      case 'preset':
        preset = message.preset
        return setStats({ preset: message.preset })
      case 'device': {
        const device = parseDeviceMessage(message.bytes)
        if (device?.type === 'clipboard') clipboardListeners.forEach((l) => l(device.text))
        return
      }
      case 'mirrored':
        return mirrorListeners.forEach((l) => l({ targets: message.targets, refused: message.refused }))
    }
  }

  const onDecoderError = (unsupported: boolean) => {
    emitStatus({ kind: 'decoderError', unsupported })
    if (unsupported) return
    const now = Date.now()
    decoderErrors = [...decoderErrors.filter((t) => now - t < 10_000), now]
    // first a keyframe; failing again soon, a lighter preset
    if (decoderErrors.length >= 2) {
      const lower = STREAM_PRESETS[Math.max(0, STREAM_PRESETS.indexOf(preset) - 1)]!
      if (lower !== preset) toCore({ t: 'preset', preset: lower })
    }
    toCore({ t: 'keyframe' })
  }

  const onDecoderMessage = (message: DecoderOut) => {
    switch (message.t) {
      case 'size':
        if (canvas) canvas.style.aspectRatio = `${message.width} / ${message.height}`
        if (canvas) canvas.dataset.orientation = message.width > message.height ? 'landscape' : 'portrait'
        return setStats({ width: message.width, height: message.height })
      case 'frame':
        if (canvas) canvas.dataset.frames = String(Number(canvas.dataset.frames ?? 0) + 1)
        return emitStatus({ kind: 'live' })
      case 'stats': {
        setStats({ fps: message.fps, decodeP50: message.decodeP50, decodeP99: message.decodeP99, framesDropped: message.framesDropped })
        if (quality === 'auto' && document.visibilityState === 'visible') {
          const next = nextAutoPreset(preset, { fps: message.fps, decodeP50: message.decodeP50, framesDropped: message.framesDropped, bytesPerSecond: stats.bytesPerSecond })
          if (next !== preset) toCore({ t: 'preset', preset: next })
        }
        return
      }
      case 'marker':
        if (canvas) {
          canvas.dataset.marker = String(message.value)
          canvas.dispatchEvent(new CustomEvent('phone-marker', { detail: message }))
        }
        return
      case 'error':
        return onDecoderError(message.kind === 'unsupported')
      case 'snapshot':
        snapshots.get(message.id)?.(message.png)
        snapshots.delete(message.id)
        return
      case 'pcm':
        return player.push(message.planes)
      case 'audioError':
        return
    }
  }

  /** hands the core a fresh pair of ports (at mount, and again when the core was replaced). */
  const subscribe = () => {
    if (closed || worker === null) return
    control?.close()
    const decoderChannel = new MessageChannel()
    const controlChannel = new MessageChannel()
    control = controlChannel.port1
    control.onmessage = (e: MessageEvent<CoreToTab>) => onCoreMessage(e.data)
    // the core died with our ports: say so at once; the core client reattaches and we subscribe again
    control.addEventListener('close', () => !closed && emitStatus({ kind: 'reconnecting' }))
    worker.postMessage({ t: 'port', port: decoderChannel.port1 } satisfies DecoderIn, [decoderChannel.port1])
    // a group's mirror set goes to the new core with the new ports
    if (mirror.length > 0) toCore({ t: 'mirror', targets: mirror })
    const input = { cardId: result.userCardId, cardToken: result.cardToken, preset, audio: soundOn }
    void core.api.openStream(input, transfer(decoderChannel.port2, [decoderChannel.port2]), transfer(controlChannel.port2, [controlChannel.port2]))
      .then((id) => {
        if (typeof id === 'number') viewerId = id
        if (closed && typeof id === 'number') void core.api.closeStream(id)
      })
  }

  // ---- input ----
  const pointerPosition = (event: PointerEvent) => {
    if (!canvas || stats.width === 0) return null
    const rect = canvas.getBoundingClientRect()
    const x = Math.round(((event.clientX - rect.left) / rect.width) * stats.width)
    const y = Math.round(((event.clientY - rect.top) / rect.height) * stats.height)
    return { x: Math.min(Math.max(x, 0), stats.width - 1), y: Math.min(Math.max(y, 0), stats.height - 1) }
  }
  const touch = (event: PointerEvent, action: number) => {
    const at = pointerPosition(event)
    if (at === null) return
    sendControl(serializer.injectTouch({
      action: action as never,
      pointerId: event.pointerType === 'mouse' ? MOUSE_POINTER_ID : BigInt(event.pointerId),
      pointerX: at.x, pointerY: at.y, videoWidth: stats.width, videoHeight: stats.height,
      pressure: action === AndroidMotionEventAction.Up ? 0 : event.pressure || 1,
      actionButton: 0, buttons: 0,
    }))
  }
  const down = new Set<number>()
  const moves = createMoveCoalescer()
  const onPointerDown = (e: PointerEvent) => {
    e.preventDefault()
    // sound kept on from earlier in this session: a touch on the phone is the gesture that lets it start
    if (soundOn) player.setOn(true)
    canvas?.setPointerCapture(e.pointerId)
    // without scrolling: a picture taller than the screen would move under the finger between down and up
    canvas?.focus({ preventScroll: true })
    down.add(e.pointerId)
    moves.flush(e.pointerId)
    touch(e, AndroidMotionEventAction.Down)
  }
  const onPointerMove = (e: PointerEvent) => {
    if (down.has(e.pointerId)) moves.move(e.pointerId, () => touch(e, AndroidMotionEventAction.Move))
  }
  const onPointerUp = (e: PointerEvent) => {
    if (!down.delete(e.pointerId)) return
    moves.flush(e.pointerId)
    touch(e, e.type === 'pointercancel' ? AndroidMotionEventAction.Cancel : AndroidMotionEventAction.Up)
  }
  const onWheel = (e: WheelEvent) => {
    if (!canvas || stats.width === 0) return
    e.preventDefault()
    const rect = canvas.getBoundingClientRect()
    sendControl(serializer.injectScroll({
      pointerX: Math.round(((e.clientX - rect.left) / rect.width) * stats.width),
      pointerY: Math.round(((e.clientY - rect.top) / rect.height) * stats.height),
      videoWidth: stats.width, videoHeight: stats.height,
      scrollX: Math.max(-1, Math.min(1, -e.deltaX / 100)), scrollY: Math.max(-1, Math.min(1, -e.deltaY / 100)), buttons: 0,
    }))
  }
  const keyPress = (keyCode: number) => {
    for (const action of [AndroidKeyEventAction.Down, AndroidKeyEventAction.Up]) {
      sendControl(serializer.injectKeyCode({ action, keyCode: keyCode as never, repeat: 0, metaState: 0 as never }))
    }
  }
  const HARDWARE_KEYS: Readonly<Record<string, number>> = {
    Backspace: AndroidKeyCode.Backspace, Enter: AndroidKeyCode.Enter, Escape: AndroidKeyCode.AndroidBack,
    ArrowUp: AndroidKeyCode.ArrowUp, ArrowDown: AndroidKeyCode.ArrowDown, ArrowLeft: AndroidKeyCode.ArrowLeft, ArrowRight: AndroidKeyCode.ArrowRight,
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return
    const code = HARDWARE_KEYS[e.key]
    if (code !== undefined) {
      e.preventDefault()
      return keyPress(code)
    }
    if (e.key.length === 1) {
      e.preventDefault()
      sendText(e.key)
    }
  }
  const onPaste = (e: ClipboardEvent) => {
    const text = e.clipboardData?.getData('text/plain')
    if (!text) return
    e.preventDefault()
    setClipboard(text, true)
  }

  const setClipboard = (text: string, paste: boolean) => {
    const r = serializer.setClipboard({ sequence: 0n, paste, content: text })
    sendControl(Array.isArray(r) ? r[0] : r)
  }
  /** ASCII as text injection; anything else (Chinese...) through the clipboard and a paste, as scrcpy clients do. */
  const sendText = (text: string) => {
    if (PRINTABLE_ASCII.test(text)) sendControl(serializer.injectText(text))
    else setClipboard(text, true)
  }

  return {
    mode: 'scrcpy',
    capabilities: { keys: true, rotate: true, quality: true, text: true, stats: true, clipboard: true, screenshot: true, audio: true },
    mount(container) {
      if (canvas) return
      canvas = document.createElement('canvas')
      canvas.className = 'viewer-canvas'
      canvas.dataset.testid = 'phone-canvas'
      canvas.tabIndex = 0
      canvas.setAttribute('role', 'application')
      canvas.setAttribute('aria-label', '云手机画面')
      canvas.style.aspectRatio = `${PRESET_SETTINGS.sd.shortSide} / ${Math.round(PRESET_SETTINGS.sd.shortSide * 16 / 9)}`
      canvas.addEventListener('pointerdown', onPointerDown)
      canvas.addEventListener('pointermove', onPointerMove)
      canvas.addEventListener('pointerup', onPointerUp)
      canvas.addEventListener('pointercancel', onPointerUp)
      canvas.addEventListener('wheel', onWheel, { passive: false })
      canvas.addEventListener('keydown', onKeyDown)
      canvas.addEventListener('paste', onPaste)
      container.appendChild(canvas)
      const offscreen = canvas.transferControlToOffscreen()
      worker = new Worker(new URL('./decoder-worker.ts', import.meta.url), { type: 'module', name: 'phone-decoder' })
      worker.onmessage = (e: MessageEvent<DecoderOut>) => onDecoderMessage(e.data)
      worker.onerror = () => onDecoderError(false)
      worker.postMessage({ t: 'init', canvas: offscreen, probe: options.probe === true } satisfies DecoderIn, [offscreen])
      emitStatus({ kind: 'opening' })
      // sound kept on from earlier in this session: it plays at once when the page already had a gesture
      if (soundOn) player.setOn(true)
      stopReattach = core.onReattach(subscribe)
      document.addEventListener('visibilitychange', onVisibility)
      subscribe()
    },
    key: (key) => keyPress(KEYS[key]),
    rotate: () => sendControl(serializer.rotateDevice()),
    setQuality(next) {
      quality = next
      if (next !== 'auto') toCore({ t: 'preset', preset: next })
    },
    sendText,
    setClipboard,
    setAudio(on) {
      soundOn = on
      player.setOn(on)
      toCore({ t: 'audio', on })
    },
    screenshot: () => new Promise((resolve) => {
      if (worker === null) return resolve(null)
      const id = ++snapshotId
      snapshots.set(id, resolve)
      worker.postMessage({ t: 'snapshot', id } satisfies DecoderIn)
    }),
    onStats(listener) {
      statsListeners.add(listener)
      return () => statsListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    onClipboard(listener) {
      clipboardListeners.add(listener)
      return () => clipboardListeners.delete(listener)
    },
    setMirror(targets) {
      mirror = [...targets]
      toCore({ t: 'mirror', targets: mirror })
    },
    onMirror(listener) {
      mirrorListeners.add(listener)
      return () => mirrorListeners.delete(listener)
    },
    close() {
      closed = true
      moves.dispose()
      stopReattach()
      document.removeEventListener('visibilitychange', onVisibility)
      if (viewerId !== null) void core.api.closeStream(viewerId)
      control?.close()
      worker?.terminate()
      player.close()
      canvas?.remove()
      canvas = null
      snapshots.forEach((resolve) => resolve(null))
      snapshots.clear()
      statsListeners.clear()
      statusListeners.clear()
      clipboardListeners.clear()
      mirrorListeners.clear()
    },
  }
}
