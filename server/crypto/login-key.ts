// The login RSA key pair: generated once per database (data dir), public half handed out as PEM by getPbKey, private
// half decrypting the tab's PKCS#1 v1.5 ciphertexts. Node refuses that padding for private decryption
// (CVE-2023-46809, the Marvin timing attack), so the RSA operation runs natively without padding (about 1 ms, where
// the pure-JS one held the event loop for about 50 ms) and the padding is removed here without data-dependent
// branches. A bad padding is not reported as such: the caller gets null and answers exactly as for a wrong password,
// after the same password-hash work, and attempts are throttled, so there is no padding oracle to query.
import { constants, createPrivateKey, generateKeyPairSync, privateDecrypt, type KeyObject } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

const KEY_NAME = 'login-rsa'

export interface LoginKey {
  readonly publicPem: string
  /** the plaintext of a base64 ciphertext, or null when it does not decrypt. */
  decrypt(base64: string): string | null
}

/**
 * The message of an EME-PKCS1-v1_5 block `00 02 PS(>= 8 non-zero bytes) 00 M`, or null. Every byte is visited and
 * validity is accumulated with bit operations, so the time taken does not depend on where the padding breaks.
 */
export const unpadPkcs1v15 = (em: Uint8Array): Uint8Array | null => {
  let bad = em[0]! | (em[1]! ^ 2)
  let separator = 0
  for (let i = 2; i < em.length; i++) {
    const isZero = ((em[i]! - 1) >>> 31) & 1 // 1 when the byte is 0
    const first = isZero & (separator === 0 ? 1 : 0)
    separator |= -first & i
  }
  bad |= separator === 0 ? 1 : 0
  bad |= separator < 10 ? 1 : 0 // at least 8 padding bytes
  return bad === 0 ? em.subarray(separator + 1) : null
}

const decryptWith = (key: KeyObject, base64: string): string | null => {
  const cipher = Buffer.from(base64.replace(/\s+/g, ''), 'base64')
  const size = (key.asymmetricKeyDetails?.modulusLength ?? 2048) / 8
  if (cipher.length !== size) return null
  let em: Buffer
  try {
    em = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, cipher)
  } catch {
    return null
  }
  const message = unpadPkcs1v15(em)
  if (!message) return null
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(message)
  } catch {
    return null
  }
}

export const loadLoginKey = async (db: Kysely<Database>): Promise<LoginKey> => {
  let row = await db.selectFrom('server_keys').selectAll().where('name', '=', KEY_NAME).executeTakeFirst()
  if (!row) {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    })
    await db
      .insertInto('server_keys')
      .values({ name: KEY_NAME, private_pem: pair.privateKey, public_pem: pair.publicKey })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    row = await db.selectFrom('server_keys').selectAll().where('name', '=', KEY_NAME).executeTakeFirstOrThrow()
  }
  const privateKey = createPrivateKey(row.private_pem)
  return { publicPem: row.public_pem, decrypt: (base64) => decryptWith(privateKey, base64) }
}
