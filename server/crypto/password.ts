// Password storage: the client sends the lowercase hex MD5 of the password; we keep a salted scrypt of that MD5.
// scrypt runs on libuv's thread pool (async), never on the event loop, and at most one fewer at a time than there
// are cores, so a burst of logins leaves a core to the event loop (the other requests) instead of queueing it.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { availableParallelism } from 'node:os'

export const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex')

const MAX_PARALLEL = Math.max(1, availableParallelism() - 1)
let running = 0
const waiting: Array<() => void> = []

const scryptAsync = async (password: string, salt: Buffer, length: number): Promise<Buffer> => {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve))
  else running += 1
  try {
    return await new Promise<Buffer>((resolve, reject) => scrypt(password, salt, length, (error, key) => (error ? reject(error) : resolve(key))))
  } finally {
    // hand the slot straight to the next waiter, or free it
    const next = waiting.shift()
    if (next) next()
    else running -= 1
  }
}

export const hashPasswordMd5 = async (passwordMd5: string): Promise<string> => {
  const salt = randomBytes(16)
  const hash = await scryptAsync(passwordMd5.toLowerCase(), salt, 32)
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`
}

/** A well-formed hash no password matches: checked against when the account is unknown or the ciphertext is bad, so
 * those answers take as long as a wrong password (they do not reveal whether a phone is registered). */
export const UNMATCHABLE_HASH = `scrypt$${'00'.repeat(16)}$${'00'.repeat(32)}`

export const verifyPasswordMd5 = async (passwordMd5: string, stored: string): Promise<boolean> => {
  const [scheme, saltHex, hashHex] = stored.split('$')
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false
  const expected = Buffer.from(hashHex, 'hex')
  const actual = await scryptAsync(passwordMd5.toLowerCase(), Buffer.from(saltHex, 'hex'), expected.length)
  return timingSafeEqual(actual, expected) && stored !== UNMATCHABLE_HASH
}
