// The login password as the backend expects it: base64 RSA PKCS#1 v1.5 of the lowercase hex MD5 of the password.
import { md5Hex } from './md5.ts'
import { parsePublicKey, rsaEncryptPkcs1 } from './rsa.ts'

export const encryptPassword = (publicKey: string, password: string): string =>
  rsaEncryptPkcs1(parsePublicKey(publicKey), md5Hex(password))
