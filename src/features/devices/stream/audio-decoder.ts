// The decoder worker's sound: scrcpy's audio channel (the Opus metadata, a config packet carrying the OpusHead, then
// packets with pts in µs) through WebCodecs' AudioDecoder; each decoded AudioData is copied to planar Float32 and
// handed on (to the tab's main thread, whose AudioWorklet plays it: the worklet must live in the page's AudioContext).
import { AUDIO_META_BYTES, PACKET_HEADER_BYTES, readMediaPacketHeader, SCRCPY_CODEC } from '../../../../worker/protocol/stream.ts'

export interface DecodedPcm {
  readonly sampleRate: number
  /** one Float32Array per channel. */
  readonly planes: Float32Array[]
  /** µs. */
  readonly timestamp: number
}

export interface AudioPipeline {
  feed(bytes: Uint8Array): void
  reset(): void
}

/** packets waiting in the decoder past which new ones are dropped (the decoder fell behind: ~1 s at 20 ms). */
const MAX_QUEUE = 50

export const createAudioPipeline = (onPcm: (pcm: DecodedPcm) => void, onError: (message: string) => void): AudioPipeline => {
  let decoder: AudioDecoder | null = null
  /** the stream's metadata said Opus: its config is next. */
  let opus = false

  const reset = () => {
    if (decoder !== null && decoder.state !== 'closed') decoder.close()
    decoder = null
  }

  const output = (data: AudioData) => {
    try {
      const planes: Float32Array[] = []
      for (let c = 0; c < data.numberOfChannels; c++) {
        const plane = new Float32Array(data.numberOfFrames)
        data.copyTo(plane, { planeIndex: c, format: 'f32-planar' })
        planes.push(plane)
      }
      onPcm({ sampleRate: data.sampleRate, planes, timestamp: data.timestamp })
    } finally {
      data.close()
    }
  }

  const configure = (head: Uint8Array) => {
    reset()
    if (typeof AudioDecoder === 'undefined') return onError('AudioDecoder is not available')
    const channels = head.byteLength >= 19 ? head[9]! : 2
    const current = new AudioDecoder({
      output,
      error: (e) => {
        if (decoder === current) decoder = null
        onError(String(e))
      },
    })
    // the OpusHead as the description: Chrome configures its Opus decoder from it (channels, pre-skip)
    current.configure({ codec: 'opus', sampleRate: 48_000, numberOfChannels: channels, description: head.slice() })
    decoder = current
  }

  return {
    feed(bytes) {
      if (bytes.byteLength === AUDIO_META_BYTES) {
        reset()
        opus = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, false) === SCRCPY_CODEC.opus
        if (!opus) onError('not an Opus audio stream')
        return
      }
      if (!opus) return
      const header = readMediaPacketHeader(bytes)
      if (header === null) return
      const data = bytes.subarray(PACKET_HEADER_BYTES)
      if (header.config) {
        try {
          configure(data)
        } catch (e) {
          reset()
          onError(String(e))
        }
        return
      }
      if (decoder === null || decoder.state !== 'configured' || decoder.decodeQueueSize > MAX_QUEUE) return
      try {
        decoder.decode(new EncodedAudioChunk({ type: 'key', timestamp: Number(header.pts), data }))
      } catch (e) {
        reset()
        onError(String(e))
      }
    },
    reset() {
      reset()
      opus = false
    },
  }
}
