// The viewer's sound output: an AudioWorkletProcessor (in the page's AudioContext, 48 kHz) playing the PCM the
// decoder worker decoded from the phone's Opus stream. A ring buffer per channel with a ~60 ms jitter buffer: it
// starts (and restarts after running dry) only once 60 ms are buffered, and when more than 150 ms pile up (a burst
// after a stall) it drops the oldest down to 60 ms, so the sound never lags the picture by more than that.
// Loaded with audioWorklet.addModule (see pcm-player.ts): self-contained, no imports.

// AudioWorkletGlobalScope (not in TypeScript's DOM lib)
declare abstract class AudioWorkletProcessor {
  readonly port: MessagePort
  abstract process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void
declare const sampleRate: number

/** main thread → processor. */
export type PcmPlayerIn = { readonly t: 'pcm'; readonly planes: ReadonlyArray<Float32Array> } | { readonly t: 'reset' }
/** processor → main thread, twice a second. */
export interface PcmPlayerStats {
  readonly t: 'stats'
  readonly buffered: number
  readonly played: number
  readonly underruns: number
  readonly dropped: number
}

const CHANNELS = 2

class PcmPlayerProcessor extends AudioWorkletProcessor {
  private readonly capacity = sampleRate
  private readonly jitter = Math.round(sampleRate * 0.06)
  private readonly maxBuffered = Math.round(sampleRate * 0.15)
  private readonly ring = Array.from({ length: CHANNELS }, () => new Float32Array(this.capacity))
  /** samples written / read since the start (monotonic; positions in the ring modulo capacity). */
  private written = 0
  private read = 0
  private playing = false
  private played = 0
  private underruns = 0
  private dropped = 0
  private sinceStats = 0

  constructor() {
    super()
    this.port.onmessage = (event: MessageEvent<PcmPlayerIn>) => {
      const m = event.data
      if (m.t === 'reset') {
        this.written = 0
        this.read = 0
        this.playing = false
      } else this.write(m.planes)
    }
  }

  private write(planes: ReadonlyArray<Float32Array>): void {
    const n = planes[0]?.length ?? 0
    if (n === 0) return
    for (let c = 0; c < CHANNELS; c++) {
      const from = planes[Math.min(c, planes.length - 1)]!
      const ring = this.ring[c]!
      for (let i = 0; i < n; i++) ring[(this.written + i) % this.capacity] = from[i]!
    }
    this.written += n
    const buffered = this.written - this.read
    if (buffered > this.maxBuffered) {
      // behind: the oldest goes
      this.dropped += buffered - this.jitter
      this.read = this.written - this.jitter
    }
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const out = outputs[0]!
    const n = out[0]?.length ?? 0
    const buffered = this.written - this.read
    if (!this.playing && buffered >= this.jitter) this.playing = true
    if (this.playing) {
      const take = Math.min(n, buffered)
      for (let c = 0; c < out.length; c++) {
        const ring = this.ring[Math.min(c, CHANNELS - 1)]!
        const channel = out[c]!
        for (let i = 0; i < take; i++) channel[i] = ring[(this.read + i) % this.capacity]!
        channel.fill(0, take)
      }
      this.read += take
      this.played += take
      if (take < n) {
        // ran dry: silence until the jitter buffer is full again
        this.playing = false
        this.underruns += 1
      }
    } else for (const channel of out) channel.fill(0)
    this.sinceStats += n
    if (this.sinceStats >= sampleRate / 2) {
      this.sinceStats = 0
      const stats: PcmPlayerStats = { t: 'stats', buffered: this.written - this.read, played: this.played, underruns: this.underruns, dropped: this.dropped }
      this.port.postMessage(stats)
    }
    return true
  }
}

registerProcessor('pcm-player', PcmPlayerProcessor)
