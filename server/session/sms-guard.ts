// SMS sends and code guesses with the per-phone and per-address throttles on top of the code's own rules (one send
// per phone per 60 s, 5 guesses per code): a stream of fresh codes cannot be used to keep guessing.
import { DomainError } from '../http/errors.ts'
import { throttleKey, type Throttle } from '../security/throttle.ts'
import type { SmsPurpose } from '../../worker/protocol/session.ts'
import { AuthStatus } from './messages.ts'
import { consumeCode, issueCode, type SentCode } from './sms.ts'
import type { SessionDb } from './tables.ts'

export interface SmsGuard {
  send(phone: string, address: string, purpose: SmsPurpose, log: (line: string) => void): Promise<SentCode>
  consume(phone: string, address: string, purpose: SmsPurpose, code: string): Promise<void>
}

export const createSmsGuard = (db: SessionDb, throttle: Throttle): SmsGuard => ({
  async send(phone, address, purpose, log) {
    const keys = [throttleKey('smsSendPhone', phone), throttleKey('smsSendAddress', address)]
    await throttle.guard(keys)
    const sent = await issueCode(db, phone, purpose, log)
    await throttle.record(keys)
    return sent
  },
  async consume(phone, address, purpose, code) {
    const phoneKey = throttleKey('smsGuessPhone', phone)
    const keys = [phoneKey, throttleKey('smsGuessAddress', address)]
    await throttle.guard(keys)
    try {
      await consumeCode(db, phone, purpose, code)
    } catch (error) {
      if (error instanceof DomainError && error.status === AuthStatus.codeWrong) await throttle.record(keys)
      throw error
    }
    await throttle.clear([phoneKey])
  },
})
