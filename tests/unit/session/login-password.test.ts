// The login password crypto on library code: MD5 (@noble/hashes) keeps the RFC 1321 vectors, and the RSA layer
// (node-forge) produces PKCS#1 v1.5 ciphertexts that the server's private key opens.
import { createHash, generateKeyPairSync } from 'node:crypto'
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'
import { describe, expect, it } from 'vitest'
import { encryptPassword, md5Hex, rsaEncryptPkcs1 } from '../../../worker/session/password.ts'

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

  it('agrees with node:crypto on every length across the padding boundaries', () => {
    let text = ''
    for (let length = 0; length <= 300; length++) {
      expect(md5Hex(text), `length ${length}`).toBe(nodeMd5(text))
      text += String.fromCharCode(33 + ((length * 37) % 90))
    }
  })
})

describe('rsaEncryptPkcs1', () => {
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  })
  const privateKey = forge.pki.privateKeyFromPem(pair.privateKey)
  const decrypt = (b64: string) => forge.util.decodeUtf8(privateKey.decrypt(forge.util.decode64(b64), 'RSAES-PKCS1-V1_5'))

  it('encrypts under a PEM key so the private key recovers the text, with fresh padding each time', () => {
    const a = rsaEncryptPkcs1(pair.publicKey, '密码 text')
    const b = rsaEncryptPkcs1(pair.publicKey, '密码 text')
    expect(a).not.toBe(b)
    expect(forge.util.decode64(a)).toHaveLength(256)
    expect(decrypt(a)).toBe('密码 text')
    expect(decrypt(b)).toBe('密码 text')
  })

  it('accepts the key as bare base64 DER, SubjectPublicKeyInfo or PKCS#1', () => {
    const spki = pair.publicKey.replace(/-----[^-]+-----|\s/g, '')
    const pkcs1Der = forge.asn1.toDer(forge.pki.publicKeyToRSAPublicKey(forge.pki.publicKeyFromPem(pair.publicKey))).getBytes()
    expect(decrypt(rsaEncryptPkcs1(spki, 'x'))).toBe('x')
    expect(decrypt(rsaEncryptPkcs1(forge.util.encode64(pkcs1Der), 'y'))).toBe('y')
  })

  it('refuses a message longer than the key allows and a key that is not RSA', () => {
    expect(() => rsaEncryptPkcs1(pair.publicKey, 'a'.repeat(246))).toThrow()
    expect(() => rsaEncryptPkcs1('bm90IGEga2V5', 'x')).toThrow()
  })

  it('sends the password as RSA over its lowercase hex MD5', () => {
    expect(decrypt(encryptPassword(pair.publicKey, 'Demo@2026'))).toBe(nodeMd5('Demo@2026'))
  })
})
