// Password storage: the client sends the lowercase hex MD5 of the password; we keep a salted scrypt of that MD5.
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'

export const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex')

export const hashPasswordMd5 = (passwordMd5: string): string => {
  const salt = randomBytes(16)
  const hash = scryptSync(passwordMd5.toLowerCase(), salt, 32)
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`
}

export const verifyPasswordMd5 = (passwordMd5: string, stored: string): boolean => {
  const [scheme, saltHex, hashHex] = stored.split('$')
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false
  const expected = Buffer.from(hashHex, 'hex')
  const actual = scryptSync(passwordMd5.toLowerCase(), Buffer.from(saltHex, 'hex'), expected.length)
  return timingSafeEqual(actual, expected)
}
