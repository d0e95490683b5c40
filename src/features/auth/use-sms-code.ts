// Sending an SMS code from a screen: validates the phone, asks the core, starts the 60 s countdown on success.
import { Toast } from 'antd-mobile'
import { useCallback, useState } from 'react'
import type { SmsPurpose } from '../../../worker/protocol/session.ts'
import { useCore } from '../../core-context.tsx'
import { zhCN } from '../../i18n/zh-CN.ts'
import { useCountdown, type Countdown } from '../../lib/use-countdown.ts'
import { phoneError } from './login-fields.ts'

export interface SmsCode {
  readonly countdown: Countdown
  readonly sending: boolean
  /** resolves to null when sent, else the message to show (the core also toasts a server message). */
  send(phone: string): Promise<string | null>
}

export const useSmsCode = (purpose: SmsPurpose): SmsCode => {
  const { api } = useCore()
  const countdown = useCountdown()
  const [sending, setSending] = useState(false)
  const { start } = countdown
  const send = useCallback(async (phone: string) => {
    const invalid = phoneError(phone)
    if (invalid) return invalid
    setSending(true)
    try {
      const result = await api.call('sendSmsCode', { type: 'common', authorizationType: purpose, phone })
      if (!result.ok) return result.msg || zhCN.auth.sendFailed
      start()
      Toast.show({ content: zhCN.auth.codeSent })
      return null
    } catch {
      return zhCN.auth.sendFailed
    } finally {
      setSending(false)
    }
  }, [api, purpose, start])
  return { countdown, sending, send }
}
