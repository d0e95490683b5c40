// The tab's decoder worker: the core posts a phone's scrcpy video bytes on a port of ours; @yume-chan/scrcpy parses
// them and @yume-chan/scrcpy-decoder-webcodecs decodes them (WebCodecs, in this dedicated worker: a SharedWorker has
// no VideoDecoder) into the OffscreenCanvas the viewer transferred. Video never crosses the tab's main thread; sound
// (the audio channel, when the viewer turned it on) is decoded here too and only its PCM goes to the main thread.
import { ScrcpyOptions3_3_1, type ScrcpyMediaStreamPacket } from '@yume-chan/scrcpy'
import { BitmapVideoFrameRenderer, WebCodecsVideoDecoder, type VideoFrameRenderer } from '@yume-chan/scrcpy-decoder-webcodecs'
import type { CoreToDecoder } from '../../../../worker/protocol/stream-ports.ts'
import { createAudioPipeline } from './audio-decoder.ts'
import { readMarker } from './marker.ts'
import type { DecoderIn, DecoderOut } from './decoder-messages.ts'

interface DecoderScope {
  postMessage(message: DecoderOut, transfer: Transferable[]): void
  onmessage: ((event: MessageEvent<DecoderIn>) => void) | null
}
declare const self: DecoderScope

const post = (message: DecoderOut, transfer: Transferable[] = []) => self.postMessage(message, transfer)
/** wall-clock ms comparable across the tab and its workers (performance.now has a per-context origin). */
const wallNow = () => performance.timeOrigin + performance.now()

let renderer: MeasuringRenderer | null = null
let probe = false
let paused = true

interface Pipeline {
  readonly controller: ReadableStreamDefaultController<Uint8Array>
  readonly abort: AbortController
  decoder: WebCodecsVideoDecoder | null
}
let pipeline: Pipeline | null = null

const audio = createAudioPipeline(
  (pcm) => post({ t: 'pcm', sampleRate: pcm.sampleRate, planes: pcm.planes, timestamp: pcm.timestamp }, pcm.planes.map((p) => p.buffer)),
  (message) => post({ t: 'audioError', message }),
)

const decodeTimes: number[] = []
let framesDecoded = 0
let firstFrameOfStream = true

/** Draws through the library's bitmap renderer, timing each frame from its packet's submission and reading the marker. */
class MeasuringRenderer implements VideoFrameRenderer {
  constructor(private readonly inner: BitmapVideoFrameRenderer) {}
  setSize(width: number, height: number): void {
    this.inner.setSize(width, height)
    post({ t: 'size', width, height })
  }
  async draw(frame: VideoFrame): Promise<void> {
    const at = wallNow()
    framesDecoded += 1
    if (probe) {
      const value = await readMarker(frame)
      if (value !== null) post({ t: 'marker', value, at })
    }
    if (paused) return
    await this.inner.draw(frame)
    if (firstFrameOfStream) {
      firstFrameOfStream = false
      post({ t: 'frame', at })
    }
  }
}

const teardown = () => {
  if (pipeline === null) return
  pipeline.abort.abort()
  try {
    pipeline.controller.close()
  } catch {
    // already closed by the abort
  }
  pipeline.decoder?.dispose()
  pipeline = null
}

/**
 * WebCodecs' VideoDecoder timed from each chunk's decode() to its frame's output (the library gives every chunk the
 * same timestamp, so frames cannot be matched by it; output order is decode order, as the stream has no B-frames).
 */
const NativeVideoDecoder = globalThis.VideoDecoder
if (NativeVideoDecoder !== undefined) {
  globalThis.VideoDecoder = class TimedVideoDecoder extends NativeVideoDecoder {
    readonly #queue: number[]
    constructor(init: VideoDecoderInit) {
      const queue: number[] = []
      super({
        ...init,
        output: (frame) => {
          const sentAt = queue.shift()
          if (sentAt !== undefined) {
            decodeTimes.push(wallNow() - sentAt)
            if (decodeTimes.length > 600) decodeTimes.splice(0, decodeTimes.length - 600)
          }
          init.output(frame)
        },
      })
      this.#queue = queue
    }
    override decode(chunk: EncodedVideoChunk): void {
      this.#queue.push(wallNow())
      super.decode(chunk)
    }
    override reset(): void {
      this.#queue.length = 0
      super.reset()
    }
  }
}

const restart = () => {
  teardown()
  if (renderer === null) return
  const abort = new AbortController()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => { controller = c } })
  const current: Pipeline = { controller, abort, decoder: null }
  pipeline = current
  firstFrameOfStream = true
  const target = renderer
  void (async () => {
    const options = new ScrcpyOptions3_3_1({ videoCodec: 'h264', sendDeviceMeta: false, sendCodecMeta: true, sendFrameMeta: true })
    const video = await options.parseVideoStreamMetadata(stream as never)
    if (pipeline !== current) return
    if (typeof VideoDecoder === 'undefined') return post({ t: 'error', kind: 'unsupported' })
    const decoder = new WebCodecsVideoDecoder({ codec: video.metadata.codec, renderer: target })
    current.decoder = decoder
    await (video.stream as unknown as ReadableStream<Uint8Array>)
      .pipeThrough(options.createMediaStreamTransformer() as unknown as TransformStream<Uint8Array, ScrcpyMediaStreamPacket>)
      .pipeTo(decoder.writable as unknown as WritableStream<ScrcpyMediaStreamPacket>, { signal: abort.signal })
  })().catch((error: unknown) => {
    if (pipeline !== current || abort.signal.aborted) return
    post({ t: 'error', kind: 'decode', message: String(error) })
  })
}

const onCore = (message: CoreToDecoder) => {
  switch (message.t) {
    case 'restart':
      paused = false
      return restart()
    case 'video':
      if (pipeline === null) return
      try {
        pipeline.controller.enqueue(message.bytes)
      } catch {
        // the pipeline failed and is being replaced
      }
      return
    case 'pause':
      paused = true
      audio.reset()
      return teardown()
    case 'audio':
      return audio.feed(message.bytes)
  }
}

const percentile = (values: ReadonlyArray<number>, p: number): number | null => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

let lastDecoded = 0
setInterval(() => {
  const skipped = pipeline?.decoder?.framesSkipped ?? 0
  post({
    t: 'stats', fps: framesDecoded - lastDecoded, framesDecoded, framesDropped: skipped,
    decodeP50: percentile(decodeTimes, 0.5), decodeP99: percentile(decodeTimes, 0.99),
  })
  lastDecoded = framesDecoded
}, 1000)

let corePort: MessagePort | null = null

self.onmessage = (event: MessageEvent<DecoderIn>) => {
  const message = event.data
  if (message.t === 'init') {
    renderer = new MeasuringRenderer(new BitmapVideoFrameRenderer(message.canvas))
    probe = message.probe
  } else if (message.t === 'port') {
    corePort?.close()
    teardown()
    audio.reset()
    corePort = message.port
    corePort.onmessage = (e: MessageEvent<CoreToDecoder>) => onCore(e.data)
  } else if (message.t === 'snapshot') {
    void (async () => {
      const png = await pipeline?.decoder?.snapshot()
      post({ t: 'snapshot', id: message.id, png: png ?? null })
    })()
  }
}
