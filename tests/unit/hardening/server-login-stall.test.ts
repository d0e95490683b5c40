// Issue 11 findings 1 and 15: a login does its expensive work (RSA, scrypt) off the event loop, so 30 simultaneous
// logins leave the server responsive; an unknown phone costs as much as a wrong password; the RSA padding is removed
// correctly and a bad one is refused like a wrong password.
import { constants, generateKeyPairSync, privateDecrypt, publicEncrypt } from 'node:crypto'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { beforeAll, describe, expect, it } from 'vitest'
import { unpadPkcs1v15 } from '../../../server/crypto/login-key.ts'
import { opsTokenMatches } from '../../../server/ops/routes.ts'
import { api, encryptPassword, useTestServer } from '../server/helpers.ts'

const t = useTestServer()
let pem: string
beforeAll(async () => {
  pem = (await api<string>(t.base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
})

const loginWith = (phone: string, password: string) =>
  api<{ token: string }>(t.base, 'POST', '/api/user/v1/client/login', {
    body: { phone, password: encryptPassword(pem, password), client: 7, uuid: 'stall' },
  })

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

describe('login work is off the event loop', () => {
  it('30 simultaneous logins do not hold the event loop (the server runs in this process)', async () => {
    const phones = ['13800138000', '13700137000', '13600136000', '13500135000']
    const bodies = Array.from({ length: 30 }, (_, i) => phones[i % phones.length]!)
    const histogram = monitorEventLoopDelay({ resolution: 5 })
    histogram.enable()
    const results = await Promise.all(bodies.map((phone) => loginWith(phone, 'Demo@2026')))
    histogram.disable()
    expect(results.every((r) => r.body.status === 0)).toBe(true)
    // Pure-JS RSA plus scryptSync held the loop ~100 ms per login: the median delay was that long. Now the loop only
    // waits for I/O; preemption by other processes may still show in the tail, so the median is what is asserted.
    const medianMs = histogram.percentile(50) / 1e6
    expect(medianMs).toBeLessThan(40)
  }, 120_000)
})

describe('timing does not reveal a registered phone', () => {
  it('an unknown phone takes as long as a wrong password', async () => {
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 12; i++) {
      let started = performance.now()
      expect((await loginWith(['13800138000', '13700137000', '13600136000'][i % 3]!, 'Wrong0pass')).body.msg).toBe('账号或密码错误')
      known.push(performance.now() - started)
      started = performance.now()
      expect((await loginWith(`1390000${String(i).padStart(4, '0')}`, 'Wrong0pass')).body.msg).toBe('账号或密码错误')
      unknown.push(performance.now() - started)
    }
    // Before: no hash was computed for an unknown phone (a few ms against tens of ms).
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5)
  }, 120_000)
})

describe('PKCS#1 v1.5 padding', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
  const raw = (cipher: Buffer) => privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, cipher)

  it('recovers the message of a well-padded block', () => {
    const message = Buffer.from('0123456789abcdef0123456789abcdef')
    const block = raw(publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, message))
    expect(Buffer.from(unpadPkcs1v15(block)!).toString()).toBe(message.toString())
  })

  it('refuses a wrong block type, a missing separator and a short padding', () => {
    const good = raw(publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from('abc')))
    const wrongType = Buffer.from(good)
    wrongType[1] = 1
    expect(unpadPkcs1v15(wrongType)).toBeNull()
    const noSeparator = Buffer.from(good).fill(7, 2)
    expect(unpadPkcs1v15(noSeparator)).toBeNull()
    const shortPadding = Buffer.from(good).fill(7, 2)
    shortPadding[5] = 0
    expect(unpadPkcs1v15(shortPadding)).toBeNull()
  })

  it('a ciphertext that does not unpad is answered like a wrong password', async () => {
    const { body } = await api(t.base, 'POST', '/api/user/v1/client/login', {
      body: { phone: '13800138000', password: Buffer.alloc(256, 3).toString('base64'), client: 7, uuid: 'u' },
    })
    expect(body.msg).toBe('账号或密码错误')
  })
})

describe('ops token', () => {
  it('matches only the exact token', () => {
    expect(opsTokenMatches('abc', 'abc')).toBe(true)
    expect(opsTokenMatches('abd', 'abc')).toBe(false)
    expect(opsTokenMatches('ab', 'abc')).toBe(false)
    expect(opsTokenMatches(undefined, 'abc')).toBe(false)
  })
})
