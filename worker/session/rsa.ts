// A small RSA encryptor for the login password (api-notes): PKCS#1 v1.5 type-2 padding with BigInt modexp, over a
// public key given as PEM or base64 DER (SubjectPublicKeyInfo, or a bare PKCS#1 RSAPublicKey).
export interface RsaPublicKey {
  readonly n: bigint
  readonly e: bigint
  /** modulus length in bytes. */
  readonly k: number
}

const base64ToBytes = (b64: string): Uint8Array => {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

const bytesToBase64 = (bytes: Uint8Array): string => {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

const bytesToBigInt = (bytes: Uint8Array): bigint => {
  let hex = ''
  for (const b of bytes) hex += b.toString(16).padStart(2, '0')
  return hex === '' ? 0n : BigInt('0x' + hex)
}

const bigIntToBytes = (value: bigint, length: number): Uint8Array => {
  const hex = value.toString(16).padStart(length * 2, '0')
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

/** Reads one DER TLV at `pos`: returns its tag, the content bounds and where the next TLV starts. */
const readTlv = (der: Uint8Array, pos: number) => {
  const tag = der[pos]
  let len = der[pos + 1]
  let start = pos + 2
  if (len & 0x80) {
    const n = len & 0x7f
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]
    start += n
  }
  if (tag === undefined || start + len > der.length) throw new Error('bad DER')
  return { tag, start, end: start + len }
}

const readRsaPublicKey = (der: Uint8Array, pos: number): RsaPublicKey => {
  const seq = readTlv(der, pos)
  const nTlv = readTlv(der, seq.start)
  const eTlv = readTlv(der, nTlv.end)
  if (seq.tag !== 0x30 || nTlv.tag !== 0x02 || eTlv.tag !== 0x02) throw new Error('not an RSA public key')
  const n = bytesToBigInt(der.subarray(nTlv.start, nTlv.end))
  return { n, e: bytesToBigInt(der.subarray(eTlv.start, eTlv.end)), k: Math.ceil(n.toString(16).length / 2) }
}

export const parsePublicKey = (key: string): RsaPublicKey => {
  const b64 = key.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')
  const der = base64ToBytes(b64)
  const outer = readTlv(der, 0)
  const first = readTlv(der, outer.start)
  // SubjectPublicKeyInfo: SEQUENCE { SEQUENCE algorithm, BIT STRING { RSAPublicKey } }
  if (first.tag === 0x30) {
    const bits = readTlv(der, first.end)
    if (bits.tag !== 0x03) throw new Error('not a SubjectPublicKeyInfo')
    return readRsaPublicKey(der, bits.start + 1)
  }
  return readRsaPublicKey(der, 0)
}

const modPow = (base: bigint, exp: bigint, mod: bigint): bigint => {
  let result = 1n
  let b = base % mod
  let e = exp
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod
    b = (b * b) % mod
    e >>= 1n
  }
  return result
}

const nonZeroRandom = (length: number): Uint8Array => {
  const out = new Uint8Array(length)
  crypto.getRandomValues(out)
  for (let i = 0; i < length; i++) {
    while (out[i] === 0) out[i] = crypto.getRandomValues(new Uint8Array(1))[0]
  }
  return out
}

/** RSAES-PKCS1-v1_5 encryption (RFC 8017 §7.2.1) of a UTF-8 string, base64 output. */
export const rsaEncryptPkcs1 = (key: RsaPublicKey, message: string): string => {
  const m = new TextEncoder().encode(message)
  if (m.length > key.k - 11) throw new Error('message too long for the key')
  const em = new Uint8Array(key.k)
  em[1] = 0x02
  em.set(nonZeroRandom(key.k - m.length - 3), 2)
  em.set(m, key.k - m.length)
  return bytesToBase64(bigIntToBytes(modPow(bytesToBigInt(em), key.e, key.n), key.k))
}
