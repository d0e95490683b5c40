// Download keys of phone files (issue 41 finding 5). The list and the upload answer no longer hand out a file's lasting
// capability: each gives a key for one file, one user and a few minutes (PHONE_FILE_URL_MS), signed with the
// deployment's secret so any instance checks it. A download also checks that this user may use the file's phone still
// (owner or grantee now, not expired), so a key outlives neither a transfer nor a removeAuth.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { PHONE_FILE_URL_MS } from '../../worker/protocol/files.ts'

/** `{user id}.{expiry, s}.{signature}`: the upload-key segment of the §7 download URL. */
const KEY = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/

export type KeyCheck = { readonly userId: number } | 'expired' | 'invalid'

export interface PhoneFileUrls {
  /** a key that downloads file `fileId` for `userId` until PHONE_FILE_URL_MS from `now`. */
  keyFor(fileId: number, userId: number, now?: number): Promise<string>
  /** the user a key was given to, if it is genuine, for this file, and not past its expiry. */
  check(key: string, fileId: number, now?: number): Promise<KeyCheck>
}

export const createPhoneFileUrls = (secret: () => Promise<string>): PhoneFileUrls => {
  const sign = async (fileId: number, userId: number, expires: number): Promise<string> =>
    createHmac('sha256', await secret()).update(`phoneFile:${fileId}:${userId}:${expires}`).digest('base64url')
  return {
    async keyFor(fileId, userId, now = Date.now()) {
      const expires = Math.ceil((now + PHONE_FILE_URL_MS) / 1000)
      return `${userId}.${expires}.${await sign(fileId, userId, expires)}`
    },
    async check(key, fileId, now = Date.now()) {
      const m = KEY.exec(key)
      if (!m) return 'invalid'
      const userId = Number(m[1])
      const expires = Number(m[2])
      const given = Buffer.from(m[3]!)
      const wanted = Buffer.from(await sign(fileId, userId, expires))
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'invalid'
      return expires * 1000 <= now ? 'expired' : { userId }
    },
  }
}
