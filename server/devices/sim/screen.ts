// One phone's screen made into video: its state drawn (render.ts) and encoded (encoder.ts), blocking. It runs on a
// screen thread (screen-pool.ts), so drawing and encoding never hold up the server's sockets; measure.ts runs it in
// process. A change of size, rate or bitrate (rotation, preset) starts a new encoder, whose stream begins with a
// keyframe and its config.
import type { EncodedPacket, EncoderSettings, PhoneEncoder } from './encoder.ts'
import { createPhoneEncoder } from './encoder.ts'
import type { PhoneState } from './phone.ts'
import { createRenderer, type Renderer } from './render.ts'

export interface FrameRequest {
  readonly state: PhoneState
  /** the phone's clock (ms since the epoch) the frame shows. */
  readonly now: number
  readonly settings: EncoderSettings
  readonly ptsUs: bigint
  readonly forceKeyframe: boolean
}

/** A thumbnail: the state at `now` as a JPEG still of width x height (THUMBNAIL in worker/protocol/stream.ts). */
export interface StillRequest {
  readonly state: PhoneState
  readonly now: number
  readonly width: number
  readonly height: number
  readonly quality: number
}

export interface PhoneScreen {
  frame(request: FrameRequest): EncodedPacket[]
  still(request: StillRequest): Uint8Array
  close(): void
}

const sameSettings = (a: EncoderSettings, b: EncoderSettings): boolean =>
  a.width === b.width && a.height === b.height && a.fps === b.fps && a.bitrate === b.bitrate

export const createPhoneScreen = (): PhoneScreen => {
  let renderer: Renderer | null = null
  // the thumbnail's own canvas (a different size from the video's)
  let stills: Renderer | null = null
  let encoder: PhoneEncoder | null = null
  return {
    frame({ state, now, settings, ptsUs, forceKeyframe }) {
      if (encoder && !sameSettings(encoder.settings, settings)) {
        encoder.close()
        encoder = null
      }
      encoder ??= createPhoneEncoder(settings)
      renderer ??= createRenderer()
      const rgba = renderer.render(state, now, settings.width, settings.height)
      try {
        return encoder.encode(rgba, ptsUs, forceKeyframe)
      } catch (e) {
        // a failed encoder is not used again: the next frame starts a new one (and a new stream)
        encoder.close()
        encoder = null
        throw e
      }
    },
    still({ state, now, width, height, quality }) {
      stills ??= createRenderer()
      return stills.still(state, now, width, height, 'jpeg', quality)
    },
    close() {
      encoder?.close()
      encoder = null
      renderer = null
      stills = null
    },
  }
}
