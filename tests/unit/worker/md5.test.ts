import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import SparkMD5 from 'spark-md5'
import { md5Hex } from '../../../worker/session/md5.ts'

const nodeMd5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex')

describe('md5Hex', () => {
  it('gives the RFC 1321 test-suite digests', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e')
    expect(md5Hex('a')).toBe('0cc175b9c0f1b6a831c399e269772661')
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72')
    expect(md5Hex('message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0')
    expect(md5Hex('abcdefghijklmnopqrstuvwxyz')).toBe('c3fcd3d76192e4007dfb496cca67e13b')
    expect(md5Hex('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')).toBe('d174ab98d277d9f5a5611c2c9f419d9f')
    expect(md5Hex('1234567890'.repeat(8))).toBe('57edf4a22be3c955ac49da2e2107b67a')
  })

  it('hashes the demo password as the server and the old library do', () => {
    expect(md5Hex('Demo@2026')).toBe(nodeMd5('Demo@2026'))
    expect(md5Hex('Demo@2026')).toBe(SparkMD5.hash('Demo@2026'))
  })

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    for (const text of ['密码123', 'pässwörd', '🔑key', '\u0000\u007f\u0080\u07ff\u0800\uffff']) {
      expect(md5Hex(text)).toBe(nodeMd5(text))
    }
  })

  it('agrees with node:crypto on every length across the padding boundaries and on long input', () => {
    let text = ''
    for (let length = 0; length <= 300; length++) {
      expect(md5Hex(text), `length ${length}`).toBe(nodeMd5(text))
      text += String.fromCharCode(33 + ((length * 37) % 90))
    }
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(25_000)
    expect(md5Hex(long)).toBe(nodeMd5(long))
  })
})
