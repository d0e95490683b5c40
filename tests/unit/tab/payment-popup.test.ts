import { describe, expect, it } from 'vitest'
import { withPaymentPopupFlag } from '../../../src/features/pay/payment-popup-flag.ts'

describe('paymentPopupVisible (§3) around the pay confirmation', () => {
  const recorder = () => {
    const writes: Array<string> = []
    return { writes, setLocal: async (key: string, value: string) => void writes.push(`${key}=${value}`) }
  }

  it('is true while the confirmation is open and false once it closes, confirmed or not', async () => {
    for (const answer of [true, false]) {
      const { writes, setLocal } = recorder()
      const result = await withPaymentPopupFlag(setLocal, async () => {
        expect(writes).toEqual(['paymentPopupVisible=true'])
        return answer
      })
      expect(result).toBe(answer)
      expect(writes).toEqual(['paymentPopupVisible=true', 'paymentPopupVisible=false'])
    }
  })

  it('is set back to false when the dialog fails', async () => {
    const { writes, setLocal } = recorder()
    await expect(withPaymentPopupFlag(setLocal, () => Promise.reject(new Error('gone')))).rejects.toThrow('gone')
    expect(writes).toEqual(['paymentPopupVisible=true', 'paymentPopupVisible=false'])
  })
})
