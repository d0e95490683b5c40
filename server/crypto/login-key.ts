// The login RSA key pair: generated once per database (data dir), public half handed out as PEM by getPbKey, private
// half decrypting PKCS#1 v1.5 ciphertexts with node-forge (Node's own crypto refuses that padding, CVE-2023-46809).
import { generateKeyPairSync } from 'node:crypto'
import forge from 'node-forge'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

const KEY_NAME = 'login-rsa'

export interface LoginKey {
  readonly publicPem: string
  /** the plaintext of a base64 ciphertext, or null when it does not decrypt. */
  decrypt(base64: string): string | null
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
  const privateKey = forge.pki.privateKeyFromPem(row.private_pem)
  return {
    publicPem: row.public_pem,
    decrypt(base64) {
      try {
        const bytes = forge.util.decode64(base64.replace(/\s+/g, ''))
        return forge.util.decodeUtf8(privateKey.decrypt(bytes, 'RSAES-PKCS1-V1_5'))
      } catch {
        return null
      }
    },
  }
}
