// The viewer's sound on the tab's main thread (an AudioWorklet must run in the page's AudioContext): the PCM the
// decoder worker posts goes to the pcm-player worklet. Sound starts only after a user gesture (the viewer's 声音
// button: browsers keep an AudioContext suspended until the page was interacted with); the choice is kept for the tab
// session (sessionStorage).
import workletUrl from './pcm-player.worklet.ts?worker&url'
import type { PcmPlayerIn, PcmPlayerStats } from './pcm-player.worklet.ts'

const SOUND_KEY = 'viewer-sound'
export const SOUND_SAMPLE_RATE = 48_000

/** the customer's 声音 choice in this tab session (off by default). */
export const soundChoice = (): boolean => {
  try {
    return sessionStorage.getItem(SOUND_KEY) === 'on'
  } catch {
    return false
  }
}
const keepSoundChoice = (on: boolean): void => {
  try {
    sessionStorage.setItem(SOUND_KEY, on ? 'on' : 'off')
  } catch {
    // storage refused (private mode): the choice lasts this viewer only
  }
}

export interface PcmPlayer {
  /** on: creates / resumes the AudioContext (call it from a user gesture); off: silences and suspends it. */
  setOn(on: boolean): void
  /** planar PCM at 48 kHz (mono or stereo); dropped while off or while the worklet is still loading. */
  push(planes: ReadonlyArray<Float32Array>): void
  onStats(listener: (stats: PcmPlayerStats) => void): void
  close(): void
}

export const createPcmPlayer = (): PcmPlayer => {
  let context: AudioContext | null = null
  let node: AudioWorkletNode | null = null
  let on = false
  let statsListener: ((stats: PcmPlayerStats) => void) | null = null
  const send = (message: PcmPlayerIn, transfer: Transferable[] = []) => node?.port.postMessage(message, transfer)

  const open = (): AudioContext => {
    const ctx = new AudioContext({ sampleRate: SOUND_SAMPLE_RATE, latencyHint: 'interactive' })
    ctx.audioWorklet.addModule(workletUrl).then(() => {
      if (context !== ctx) return
      node = new AudioWorkletNode(ctx, 'pcm-player', { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [2] })
      node.port.onmessage = (e: MessageEvent<PcmPlayerStats>) => statsListener?.(e.data)
      node.connect(ctx.destination)
    }).catch(() => {
      // no AudioWorklet (an old or locked-down browser): the viewer stays silent
    })
    return ctx
  }

  return {
    setOn(next) {
      on = next
      keepSoundChoice(next)
      if (next) {
        context ??= open()
        void context.resume().catch(() => undefined)
      } else {
        send({ t: 'reset' })
        void context?.suspend().catch(() => undefined)
      }
    },
    push(planes) {
      if (!on || node === null) return
      send({ t: 'pcm', planes }, planes.map((p) => p.buffer))
    },
    onStats(listener) {
      statsListener = listener
    },
    close() {
      on = false
      node?.disconnect()
      node = null
      void context?.close().catch(() => undefined)
      context = null
      statsListener = null
    },
  }
}
