// The messages between the viewer (tab main thread) and its decoder worker.

export type DecoderIn =
  /** once: the canvas the worker draws on; probe: read the phone's input marker from every frame (tests, bench). */
  | { readonly t: 'init'; readonly canvas: OffscreenCanvas; readonly probe: boolean }
  /** the core's end of this phone's stream (again after the core was replaced). */
  | { readonly t: 'port'; readonly port: MessagePort }
  | { readonly t: 'snapshot'; readonly id: number }

export type DecoderOut =
  | { readonly t: 'size'; readonly width: number; readonly height: number }
  /** the first frame of a (re)started stream is on the canvas. */
  | { readonly t: 'frame'; readonly at: number }
  | {
    readonly t: 'stats'; readonly fps: number; readonly framesDecoded: number; readonly framesDropped: number
    readonly decodeP50: number | null; readonly decodeP99: number | null
  }
  | { readonly t: 'marker'; readonly value: number; readonly at: number }
  | { readonly t: 'error'; readonly kind: 'unsupported' | 'decode'; readonly message?: string }
  | { readonly t: 'snapshot'; readonly id: number; readonly png: Blob | null }
  /** decoded sound (planar Float32, one array per channel; their buffers transferred), for the page's AudioWorklet. */
  | { readonly t: 'pcm'; readonly sampleRate: number; readonly planes: Float32Array[]; readonly timestamp: number }
  /** the sound could not be decoded (the picture is unaffected); it starts again with the stream's next config. */
  | { readonly t: 'audioError'; readonly message: string }
