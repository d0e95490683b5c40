// scrcpy control messages (what a viewer sends up the control channel) read with @yume-chan/scrcpy's own structs, at
// the type numbers of ScrcpyOptionsLatest (3.3.3); and the device messages the phone sends down (clipboard, ack).
// get-clipboard has no exported struct: its layout is scrcpy's (type u8, copy_key u8; a bare type byte is accepted).
import {
  ScrcpyBackOrScreenOnControlMessage, ScrcpyControlMessageType, ScrcpyControlMessageTypeMap, ScrcpyInjectKeyCodeControlMessage,
  ScrcpyInjectScrollControlMessage, ScrcpyInjectTextControlMessage, ScrcpyInjectTouchControlMessage, ScrcpyOptionsLatest,
  ScrcpySetClipboardControlMessage,
} from '@yume-chan/scrcpy'
import { Uint8ArrayExactReadable } from '@yume-chan/struct'

export type ControlMessage =
  | { readonly type: 'touch'; readonly action: number; readonly pointerId: bigint; readonly x: number; readonly y: number; readonly videoWidth: number; readonly videoHeight: number }
  | { readonly type: 'key'; readonly action: number; readonly keyCode: number; readonly repeat: number; readonly metaState: number }
  | { readonly type: 'text'; readonly text: string; readonly bytes: number }
  | { readonly type: 'scroll'; readonly x: number; readonly y: number; readonly videoWidth: number; readonly videoHeight: number; readonly scrollX: number; readonly scrollY: number }
  | { readonly type: 'backOrScreenOn'; readonly action: number }
  | { readonly type: 'getClipboard'; readonly copyKey: number }
  | { readonly type: 'setClipboard'; readonly sequence: bigint; readonly paste: boolean; readonly text: string; readonly bytes: number }
  | { readonly type: 'rotate' }
  | { readonly type: 'resetVideo' }
  /** a message of a type the phone does not act on (notification panel, display power, uhid, start app...). */
  | { readonly type: 'other'; readonly wireType: number }

const types = new ScrcpyControlMessageTypeMap(new ScrcpyOptionsLatest({}))
export const CONTROL_TYPE = {
  injectKeyCode: types.get(ScrcpyControlMessageType.InjectKeyCode),
  injectText: types.get(ScrcpyControlMessageType.InjectText),
  injectTouch: types.get(ScrcpyControlMessageType.InjectTouch),
  injectScroll: types.get(ScrcpyControlMessageType.InjectScroll),
  backOrScreenOn: types.get(ScrcpyControlMessageType.BackOrScreenOn),
  getClipboard: types.get(ScrcpyControlMessageType.GetClipboard),
  setClipboard: types.get(ScrcpyControlMessageType.SetClipboard),
  rotateDevice: types.get(ScrcpyControlMessageType.RotateDevice),
  resetVideo: types.get(ScrcpyControlMessageType.ResetVideo),
} as const

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8')

/** One control message (a websocket message carries exactly one), or null when it is malformed. */
export const parseControl = (bytes: Uint8Array): ControlMessage | null => {
  if (bytes.byteLength === 0) return null
  const wireType = bytes[0]!
  const read = <T>(deserialize: (r: Uint8ArrayExactReadable) => T): T | null => {
    const reader = new Uint8ArrayExactReadable(bytes)
    try {
      const value = deserialize(reader)
      return reader.position === bytes.byteLength ? value : null
    } catch {
      return null
    }
  }
  switch (wireType) {
    case CONTROL_TYPE.injectTouch: {
      const m = read((r) => ScrcpyInjectTouchControlMessage.deserialize(r))
      return m && { type: 'touch', action: m.action, pointerId: m.pointerId, x: m.pointerX, y: m.pointerY, videoWidth: m.videoWidth, videoHeight: m.videoHeight }
    }
    case CONTROL_TYPE.injectKeyCode: {
      const m = read((r) => ScrcpyInjectKeyCodeControlMessage.deserialize(r))
      return m && { type: 'key', action: m.action, keyCode: m.keyCode, repeat: m.repeat, metaState: m.metaState }
    }
    case CONTROL_TYPE.injectText: {
      const m = read((r) => ScrcpyInjectTextControlMessage.deserialize(r))
      return m && { type: 'text', text: m.text, bytes: bytes.byteLength - 5 }
    }
    case CONTROL_TYPE.injectScroll: {
      const m = read((r) => ScrcpyInjectScrollControlMessage.deserialize(r))
      return m && { type: 'scroll', x: m.pointerX, y: m.pointerY, videoWidth: m.videoWidth, videoHeight: m.videoHeight, scrollX: m.scrollX, scrollY: m.scrollY }
    }
    case CONTROL_TYPE.backOrScreenOn: {
      const m = read((r) => ScrcpyBackOrScreenOnControlMessage.deserialize(r))
      return m && { type: 'backOrScreenOn', action: m.action }
    }
    case CONTROL_TYPE.getClipboard:
      if (bytes.byteLength > 2) return null
      return { type: 'getClipboard', copyKey: bytes[1] ?? 0 }
    case CONTROL_TYPE.setClipboard: {
      const m = read((r) => ScrcpySetClipboardControlMessage.deserialize(r))
      return m && { type: 'setClipboard', sequence: m.sequence, paste: Boolean(m.paste), text: m.content, bytes: bytes.byteLength - 14 }
    }
    case CONTROL_TYPE.rotateDevice:
      return bytes.byteLength === 1 ? { type: 'rotate' } : null
    case CONTROL_TYPE.resetVideo:
      return bytes.byteLength === 1 ? { type: 'resetVideo' } : null
    default:
      return { type: 'other', wireType }
  }
}

// ---- device messages (phone → viewers, on the control channel) ----

export const DEVICE_MESSAGE = { clipboard: 0, ackClipboard: 1 } as const

/** scrcpy's clipboard device message: type 0, u32 BE length, UTF-8 text. */
export const clipboardMessage = (text: string): Uint8Array => {
  const utf8 = Buffer.from(text, 'utf8')
  const out = new Uint8Array(5 + utf8.byteLength)
  out[0] = DEVICE_MESSAGE.clipboard
  new DataView(out.buffer).setUint32(1, utf8.byteLength, false)
  out.set(utf8, 5)
  return out
}

/** scrcpy's ack-clipboard device message: type 1, u64 BE sequence (answers a set-clipboard with a non-zero one). */
export const ackClipboardMessage = (sequence: bigint): Uint8Array => {
  const out = new Uint8Array(9)
  out[0] = DEVICE_MESSAGE.ackClipboard
  new DataView(out.buffer).setBigUint64(1, sequence, false)
  return out
}

export { utf8Length }
