// scrcpy device messages the phone sends on its control channel: the clipboard (type 0: u32 length, UTF-8 text).
// Other types (clipboard ack, UHID output) are not used by this viewer and are ignored.
const CLIPBOARD = 0
const decoder = new TextDecoder()

export type DeviceMessage = { readonly type: 'clipboard'; readonly text: string }

export const parseDeviceMessage = (bytes: Uint8Array): DeviceMessage | null => {
  if (bytes.byteLength < 5 || bytes[0] !== CLIPBOARD) return null
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, false)
  if (length !== bytes.byteLength - 5) return null
  return { type: 'clipboard', text: decoder.decode(bytes.subarray(5)) }
}
