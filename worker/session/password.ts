// The login password as the backend expects it (api-notes): base64 RSA PKCS#1 v1.5 of the lowercase hex MD5 of the
// password. MD5 from @noble/hashes, RSA from node-forge (the library the reference server decrypts with). Only the
// forge modules RSA encryption needs are imported; this file is its own lazily loaded chunk (see session.ts).
import { md5 } from '@noble/hashes/legacy.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import forge from 'node-forge/lib/forge'
import 'node-forge/lib/asn1'
import 'node-forge/lib/rsa'
import 'node-forge/lib/util'

/** Lowercase hex MD5 of the UTF-8 bytes of `text`. */
export const md5Hex = (text: string): string => bytesToHex(md5(utf8ToBytes(text)))

/** A public key given as PEM or bare base64 DER (SubjectPublicKeyInfo or PKCS#1 RSAPublicKey). */
const publicKeyOf = (key: string) => {
  const der = forge.util.decode64(key.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''))
  return forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(der))
}

/** RSAES-PKCS1-v1_5 encryption of a UTF-8 string, base64 output; the padding bytes come from crypto.getRandomValues. */
export const rsaEncryptPkcs1 = (publicKey: string, message: string): string =>
  forge.util.encode64(publicKeyOf(publicKey).encrypt(forge.util.encodeUtf8(message), 'RSAES-PKCS1-V1_5'))

export const encryptPassword = (publicKey: string, password: string): string => rsaEncryptPkcs1(publicKey, md5Hex(password))
